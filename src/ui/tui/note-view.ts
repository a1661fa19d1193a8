import type { TerminalSafe } from '../../util/sanitize-terminal.js';
import type { SafeComponent } from './safe-component.js';
import { wrapLines } from './terminal-lines.js';

/** A few lines of already styled (and sanitised) text, wrapped to the width. */
export class NoteView implements SafeComponent {
  constructor(private text: TerminalSafe) {}

  setText(text: TerminalSafe): void {
    this.text = text;
  }

  render(width: number): TerminalSafe[] {
    return (this.text.split('\n') as TerminalSafe[]).flatMap((line) =>
      line ? wrapLines(line, width) : [line],
    );
  }

  invalidate(): void {}
}
