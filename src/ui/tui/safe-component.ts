import { type Component, Container, Markdown } from '@mariozechner/pi-tui';
import type { TerminalSafe } from '../../util/sanitize-terminal.js';

/**
 * A part of the screen whose lines are all safe for the terminal: built from sanitised text, the
 * program's own literals and our styles (src/util/sanitize-terminal.ts). Every view of the TUI is
 * one, and the views that hold others take only these, so text that skipped the sanitiser is a
 * compile error where it would be drawn.
 */
export interface SafeComponent extends Component {
  render(width: number): TerminalSafe[];
}

/** pi-tui's Container that holds only safe parts (the transcript, the panel slot). */
export class SafeContainer extends Container {
  override addChild(component: SafeComponent): void {
    super.addChild(component);
  }

  override render(width: number): TerminalSafe[] {
    return super.render(width) as TerminalSafe[];
  }
}

/**
 * pi-tui's Markdown over safe text. Its lines are that text laid out with our theme's styles
 * (src/ui/tui/tui-style.ts) and the highlighter's colours, so they are as safe as the text: the
 * text is the only way in, and it is typed.
 */
export class SafeMarkdown implements SafeComponent {
  private readonly markdown: Markdown;

  constructor(text: TerminalSafe, theme: ConstructorParameters<typeof Markdown>[3]) {
    this.markdown = new Markdown(text, 0, 0, theme);
  }

  setText(text: TerminalSafe): void {
    this.markdown.setText(text);
  }

  render(width: number): TerminalSafe[] {
    return this.markdown.render(width) as TerminalSafe[];
  }

  invalidate(): void {
    this.markdown.invalidate();
  }
}
