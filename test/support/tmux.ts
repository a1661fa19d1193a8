import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** How long `waitFor` polls the screen before failing. */
const WAIT_DEADLINE_MS = 15_000;
const POLL_INTERVAL_MS = 50;

/**
 * A program running in a real terminal: a detached tmux session on a private server socket (so
 * tests never touch a user's tmux), read with `capture-pane`, typed into with `send-keys`.
 */
export class TmuxTerminal {
  private constructor(
    private readonly socket: string,
    private readonly target: string,
  ) {}

  /** Starts `argv` in a `width`×`height` terminal with exactly `env` (plus TERM and a UTF-8 locale). */
  static async start(options: {
    argv: string[];
    env: Readonly<Record<string, string | undefined>>;
    cwd: string;
    width?: number;
    height?: number;
  }): Promise<TmuxTerminal> {
    const socket = join(tmpdir(), `kimi-ts-tmux-${randomUUID()}`);
    const target = 'test';
    const env = Object.entries({ TERM: 'xterm-256color', LANG: 'C.UTF-8', ...options.env })
      .filter((entry): entry is [string, string] => entry[1] !== undefined)
      .map(([name, value]) => `${name}=${value}`);
    await run('tmux', [
      '-u',
      '-S',
      socket,
      '-f',
      '/dev/null',
      'new-session',
      '-d',
      '-s',
      target,
      '-x',
      String(options.width ?? 120),
      '-y',
      String(options.height ?? 40),
      '-c',
      options.cwd,
      'env',
      '-i',
      ...env,
      ...options.argv,
    ]);
    // Keep the pane after the program exits, so its last screen can still be read.
    await run('tmux', ['-S', socket, 'set-option', '-t', target, 'remain-on-exit', 'on']);
    return new TmuxTerminal(socket, target);
  }

  /** The visible screen, as text. */
  async screen(): Promise<string> {
    const { stdout } = await run('tmux', ['-u', '-S', this.socket, 'capture-pane', '-p', '-t', this.target]);
    return stdout;
  }

  /** Resolves with the screen once `test` holds for it; fails with the last screen after a deadline. */
  async waitFor(test: string | RegExp | ((screen: string) => boolean)): Promise<string> {
    const holds =
      typeof test === 'string'
        ? (screen: string) => screen.includes(test)
        : test instanceof RegExp
          ? (screen: string) => test.test(screen)
          : test;
    const deadline = Date.now() + WAIT_DEADLINE_MS;
    for (;;) {
      const screen = await this.screen();
      if (holds(screen)) return screen;
      if (Date.now() > deadline)
        throw new Error(`The terminal never showed ${String(test)}. Screen:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
    }
  }

  /** Types `text` literally (no key names). */
  async type(text: string): Promise<void> {
    await run('tmux', ['-S', this.socket, 'send-keys', '-t', this.target, '-l', text]);
  }

  /** Presses keys by tmux name (`Enter`, `C-c`). */
  async press(...keys: string[]): Promise<void> {
    await run('tmux', ['-S', this.socket, 'send-keys', '-t', this.target, ...keys]);
  }

  async close(): Promise<void> {
    await run('tmux', ['-S', this.socket, 'kill-server']).catch(() => undefined);
  }
}
