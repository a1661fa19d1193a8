import { createInterface, type Interface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';

/** What `nextPrompt` resolves with when `wake()` ended its wait before a line came. */
export const WOKEN = Symbol('woken');

/**
 * Lines typed by the user, as a queue both the prompt loop and approval questions read from. On a
 * terminal it shows a prompt; on a pipe it just reads lines. `next()` resolves with null at end of
 * input.
 */
export class LineReader {
  private readonly rl: Interface;
  private readonly lines: string[] = [];
  private waiter: ((line: string | null | typeof WOKEN) => void) | null = null;
  private wakeable = false;
  private ended = false;
  private prefilled: string | null = null;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    readonly isTerminal: boolean,
    onInterrupt: () => void,
    /** Earlier prompts, newest first, for the up arrow (terminal only). */
    history: readonly string[] = [],
    /**
     * Ctrl-S with text on the line (terminal only): gets the text; when it returns true the text
     * was taken (the running turn is steered with it) and the line is cleared.
     */
    onSteer: (text: string) => boolean = () => false,
  ) {
    this.rl = createInterface({
      input,
      output: isTerminal ? output : undefined,
      terminal: isTerminal,
      history: [...history],
      historySize: 1000,
      removeHistoryDuplicates: true,
    });
    this.rl.on('line', (line) => this.push(line));
    if (isTerminal) {
      // readline emits keypresses on its input in terminal mode.
      input.on(
        'keypress',
        (_char: string | undefined, key: { ctrl?: boolean; name?: string } | undefined) => {
          if (!key?.ctrl || key.name !== 's') return;
          const text = this.rl.line;
          if (!text.trim() || !onSteer(text)) return;
          this.rl.write(null, { ctrl: true, name: 'e' });
          this.rl.write(null, { ctrl: true, name: 'u' });
        },
      );
    }
    this.rl.on('close', () => {
      this.ended = true;
      this.waiter?.(null);
      this.waiter = null;
    });
    this.rl.on('SIGINT', onInterrupt);
  }

  /** The next line, after showing `prompt` (terminal only); null once input has ended. */
  next(prompt = ''): Promise<string | null> {
    return this.read(prompt, false) as Promise<string | null>;
  }

  /**
   * A line that answers a question shown just now (an approval, a question of the model). On a
   * terminal, what was typed before the question appeared never answers it: whole lines waiting in
   * the queue are set aside for the prompts after it, and a half-typed line is taken off the input
   * line and put back once the question is answered. (On a pipe every line is typed ahead, and
   * scripts rely on lines answering in order, so there it is the same as `next`.)
   */
  async ask(prompt: string): Promise<string | null> {
    if (!this.isTerminal) return this.next(prompt);
    const typedAhead = this.lines.splice(0);
    const partial = this.rl.line;
    if (partial) {
      this.rl.write(null, { ctrl: true, name: 'e' });
      this.rl.write(null, { ctrl: true, name: 'u' });
    }
    try {
      return await this.next(prompt);
    } finally {
      this.lines.unshift(...typedAhead);
      if (partial) this.rl.write(partial);
    }
  }

  /** Like `next`, but `wake()` ends the wait early with WOKEN (the typed line then goes to the next read). */
  nextPrompt(prompt: string): Promise<string | null | typeof WOKEN> {
    return this.read(prompt, true);
  }

  /** Ends a `nextPrompt` wait with WOKEN; false when nothing waits that way. */
  wake(): boolean {
    if (!this.waiter || !this.wakeable) return false;
    const resolve = this.waiter;
    this.waiter = null;
    resolve(WOKEN);
    return true;
  }

  /** Puts `text` on the next prompt's line, for the user to edit or send (terminal only). */
  prefill(text: string): void {
    if (this.isTerminal) this.prefilled = text;
  }

  private read(prompt: string, wakeable: boolean): Promise<string | null | typeof WOKEN> {
    if (prompt && this.isTerminal && !this.ended) {
      this.rl.setPrompt(prompt);
      this.rl.prompt();
      if (this.prefilled !== null) this.rl.write(this.prefilled);
      this.prefilled = null;
    } else if (prompt) {
      this.output.write(prompt);
    }
    const line = this.lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.ended) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.waiter = resolve;
      this.wakeable = wakeable;
    });
  }

  /** Hands the terminal over (to an editor): input is not read until `resume`. */
  pause(): void {
    // Node 24's readline throws on a closed interface (input ended before the editor was asked for).
    if (this.ended) return;
    this.rl.pause();
    if (this.isTerminal) (this.input as NodeJS.ReadStream).setRawMode?.(false);
  }

  resume(): void {
    if (this.ended) return;
    if (this.isTerminal) (this.input as NodeJS.ReadStream).setRawMode?.(true);
    this.rl.resume();
  }

  close(): void {
    this.rl.close();
  }

  private push(line: string): void {
    // Until the next prompt, a redrawn line (Ctrl-S clearing it) shows no stale prompt sign.
    if (this.isTerminal) this.rl.setPrompt('');
    if (this.waiter) {
      const resolve = this.waiter;
      this.waiter = null;
      resolve(line);
    } else {
      this.lines.push(line);
    }
  }
}
