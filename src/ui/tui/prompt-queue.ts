import { NoteView } from './note-view.js';
import { queuedText } from './transcript-notes.js';
import type { TuiStyle } from './tui-style.js';

/**
 * Prompts sent while a job runs, run in order once it ends. They show dimmed above the prompt
 * editor (`queued: …`) until their turn comes.
 */
export class PromptQueue {
  /** The queued prompts as the TUI shows them. */
  readonly view: NoteView;
  private readonly prompts: string[] = [];

  constructor(private readonly style: TuiStyle) {
    this.view = new NoteView(queuedText(style, []));
  }

  get isEmpty(): boolean {
    return this.prompts.length === 0;
  }

  push(text: string): void {
    this.prompts.push(text);
    this.show();
  }

  /** The next prompt, taken off the queue (undefined when none waits). */
  shift(): string | undefined {
    const next = this.prompts.shift();
    this.show();
    return next;
  }

  /** Forgets every queued prompt (leaving the TUI runs none of them). */
  clear(): void {
    this.prompts.length = 0;
  }

  private show(): void {
    this.view.setText(queuedText(this.style, this.prompts));
  }
}
