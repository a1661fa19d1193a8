// The library's own modules, not its index: the first frame needs none of its Markdown (marked) or
// the rest, which load with the TUI proper once the session is being built.
import type { Terminal } from '@mariozechner/pi-tui';
import { Editor } from '@mariozechner/pi-tui/dist/components/editor.js';
import { matchesKey } from '@mariozechner/pi-tui/dist/keys.js';
import { ProcessTerminal } from '@mariozechner/pi-tui/dist/terminal.js';
import { TUI } from '@mariozechner/pi-tui/dist/tui.js';
import { truncateToWidth } from '@mariozechner/pi-tui/dist/utils.js';
import type { TerminalSafe } from '../../util/sanitize-terminal.js';
import { HandoffTerminal } from './handoff-terminal.js';
import { useKimiKeys } from './kimi-keys.js';
import type { SafeComponent } from './safe-component.js';
import { tuiStyle } from './tui-style.js';

/** One line of text, cut to the width. */
const line = (text: TerminalSafe): SafeComponent => ({
  render: (width) => [truncateToWidth(text, width) as TerminalSafe],
  invalidate: () => {},
});

/**
 * The prompt, drawn before the session is built (reading the config, the agent spec, the tools and
 * the context takes most of a start), so the user can type at once: the editor and its key hint, and
 * "starting…" where the status line goes. The keys only echo here: `handOff()` erases the prompt and
 * gives every key pressed so far to the TUI proper, which draws itself in its place on the same
 * terminal (never out of raw mode in between) and handles them as if they were pressed there — so
 * Enter, completion menus, Ctrl-D all work as usual. `abort()` puts the terminal back when no TUI
 * follows.
 */
export class TuiSplash {
  readonly terminal: HandoffTerminal;
  private readonly tui: TUI;
  private readonly pressed: string[] = [];
  private done = false;

  constructor(color: boolean, terminal: Terminal = new ProcessTerminal()) {
    const style = tuiStyle(color);
    useKimiKeys();
    this.terminal = new HandoffTerminal(terminal);
    this.tui = new TUI(this.terminal);
    const editor = new Editor(this.tui, style.editor, { paddingX: 1 });
    const hint = line(style.dim('Enter sends · Shift-Enter or Ctrl-J: new line · /exit leaves'));
    const status = line(style.dim('starting…'));
    for (const part of [hint, editor, status]) this.tui.addChild(part);
    this.tui.setFocus(editor);
    this.tui.addInputListener((data) => {
      // Shift-Tab flips plan mode, which this prompt cannot show yet (a resumed session may be in it):
      // a flip pressed blind is dropped, not replayed.
      if (matchesKey(data, 'shift+tab')) return { consume: true };
      this.pressed.push(data);
      return undefined;
    });
    this.tui.start();
    // The first frame goes out now, before the session's work blocks the event loop. (`doRender` is
    // what the library's scheduled render runs; a forced render would clear the screen and scrollback.)
    (this.tui as unknown as { doRender(): void }).doRender();
  }

  /** Whether the prompt is still drawn (not yet handed over or aborted). */
  get isUp(): boolean {
    return !this.done;
  }

  /** Erases the prompt; the keys pressed at it go to whoever starts the terminal next (the TUI). */
  handOff(): void {
    this.finish();
    this.terminal.replay(this.pressed.splice(0));
  }

  /** Erases the prompt and gives the terminal back (the session could not be built). */
  abort(): void {
    this.finish();
    this.terminal.close();
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    // Drawn empty, the library clears every line of the prompt but its first and leaves the cursor
    // there (its own bookkeeping of where the cursor is, not ours); that line is cleared here. Then
    // stop() has nothing to step past.
    this.tui.clear();
    (this.tui as unknown as { doRender(): void }).doRender();
    this.terminal.write('\r\x1b[J');
    this.tui.stop();
  }
}
