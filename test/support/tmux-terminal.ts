import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_NODE } from './run-cli.js';

/** How long a wait for text on the screen may take before the test fails with what the screen showed. */
const WAIT_TIMEOUT_MS = 15_000;
const POLL_MS = 40;

/**
 * A real terminal for end-to-end tests of the terminal UI: a tmux pane running a command, on a tmux
 * server of its own (its own socket), so tests never see (or kill) anyone else's tmux sessions.
 */
export class TmuxTerminal {
  private constructor(
    private readonly socket: string,
    private readonly name: string,
  ) {}

  /**
   * Starts `argv` in a `width`×`height` pane with exactly `env` (plus TERM), in `cwd`. The pane stays
   * after the command ends, so its exit status can be read.
   */
  static start(options: {
    argv: string[];
    env: NodeJS.ProcessEnv;
    cwd: string;
    scriptDir: string;
    width?: number;
    height?: number;
  }): TmuxTerminal {
    const id = `kimi-tui-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    const script = join(options.scriptDir, `${id}.sh`);
    const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const exports = Object.entries({ TERM: 'xterm-256color', ...options.env })
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => `export ${key}=${quote(String(value))}`);
    writeFileSync(
      script,
      [
        '#!/bin/sh',
        `cd ${quote(options.cwd)}`,
        ...exports,
        `exec ${options.argv.map(quote).join(' ')}`,
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
    const terminal = new TmuxTerminal(id, id);
    // -f /dev/null: no user tmux.conf; the session starts with the pane's size fixed to ours.
    terminal.tmux(
      '-f',
      '/dev/null',
      'new-session',
      '-d',
      '-x',
      String(options.width ?? 120),
      '-y',
      String(options.height ?? 40),
      '-s',
      id,
      script,
    );
    terminal.tmux('set-option', '-t', id, 'remain-on-exit', 'on');
    return terminal;
  }

  /** The visible screen, plain text, trailing blanks trimmed. */
  screen(): string {
    return this.tmux('capture-pane', '-p', '-t', this.name)
      .split('\n')
      .map((line) => line.trimEnd())
      .join('\n')
      .trimEnd();
  }

  /** The screen and the scrollback above it. */
  history(): string {
    return this.tmux('capture-pane', '-p', '-S', '-', '-t', this.name);
  }

  /** The screen with its colours and attributes, as escape sequences. */
  screenWithEscapes(): string {
    return this.tmux('capture-pane', '-p', '-e', '-t', this.name);
  }

  /** Waits until the screen (or, with `inHistory`, the scrollback) shows `what`; returns the screen. */
  async waitFor(
    what: string | RegExp,
    options: { inHistory?: boolean; timeoutMs?: number } = {},
  ): Promise<string> {
    const deadline = Date.now() + (options.timeoutMs ?? WAIT_TIMEOUT_MS);
    for (;;) {
      const text = options.inHistory ? this.history() : this.screen();
      if (typeof what === 'string' ? text.includes(what) : what.test(text)) return text;
      if (Date.now() > deadline) {
        throw new Error(`The terminal never showed ${String(what)}. It shows:\n${text}`);
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** Waits until `check` passes on the screen; returns the screen. */
  async waitUntil(check: (screen: string) => boolean, what: string): Promise<string> {
    const deadline = Date.now() + WAIT_TIMEOUT_MS;
    for (;;) {
      const text = this.screen();
      if (check(text)) return text;
      if (Date.now() > deadline) throw new Error(`The terminal never showed ${what}. It shows:\n${text}`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** Waits until no turn runs (the status line no longer says it is working); returns the screen. */
  waitForIdle(): Promise<string> {
    return this.waitUntil((screen) => !screen.includes(TUI_WORKING), 'the turn finished');
  }

  /** Types text as it is (no key names). */
  type(text: string): void {
    this.tmux('send-keys', '-t', this.name, '-l', text);
  }

  /** Presses keys by tmux's names: `Enter`, `Escape`, `C-c`, `Up`, `S-Enter`... */
  press(...keys: string[]): void {
    this.tmux('send-keys', '-t', this.name, ...keys);
  }

  /**
   * Pastes `text` the way a terminal does: wrapped in bracketed-paste markers when the program asked
   * for them (tmux's `paste-buffer -p`), else as typed.
   */
  paste(text: string): void {
    execFileSync('tmux', ['-L', this.socket, 'load-buffer', '-b', 'paste', '-'], { input: text });
    this.tmux('paste-buffer', '-p', '-d', '-b', 'paste', '-t', this.name);
  }

  resize(width: number, height: number): void {
    this.tmux('resize-window', '-t', this.name, '-x', String(width), '-y', String(height));
  }

  /** The command's exit status once it ended, else null. */
  exitStatus(): number | null {
    const format = '#{pane_dead} #{pane_dead_status} #{pane_dead_signal}';
    const [dead, status, signal] = this.tmux('display-message', '-p', '-t', this.name, format)
      .trim()
      .split(' ');
    if (dead !== '1') return null;
    if (signal) throw new Error(`The command was killed by signal ${signal}.\n${this.screen()}`);
    if (status) return Number(status);
    // tmux marks the pane dead when its terminal closes, and records the status when it reaps the
    // process. tmux 3.3a sometimes never reaps it (the command stays a zombie of the tmux server for
    // good, seen under load): the zombie's exit status is then read from /proc.
    return this.zombieExitStatus();
  }

  /** The exit status of the pane's process if it is a zombie (Linux: /proc/<pid>/stat), else null. */
  private zombieExitStatus(): number | null {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${this.pid()}/stat`, 'utf8');
    } catch {
      return null;
    }
    // The fields after the command name (in parentheses, which may hold spaces): state is the first,
    // and the last (`exit_code`, field 52) is the status as waitpid(2) reports it.
    const fields = stat
      .slice(stat.lastIndexOf(')') + 2)
      .trim()
      .split(' ');
    if (fields[0] !== 'Z') return null;
    const waitStatus = Number(fields.at(-1));
    const signal = waitStatus & 0x7f;
    if (signal !== 0) throw new Error(`The command was killed by signal ${signal}.\n${this.screen()}`);
    return (waitStatus >> 8) & 0xff;
  }

  /** Waits for the command to end; returns its exit status. */
  async waitForExit(): Promise<number> {
    const deadline = Date.now() + WAIT_TIMEOUT_MS;
    for (;;) {
      const status = this.exitStatus();
      if (status !== null) return status;
      if (Date.now() > deadline)
        throw new Error(`The command did not end. The terminal shows:\n${this.screen()}`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** The pane's title (what an OSC 0/2 sequence would set). */
  title(): string {
    return this.tmux('display-message', '-p', '-t', this.name, '#{pane_title}').trim();
  }

  /** The process id of the command in the pane. */
  pid(): number {
    return Number(this.tmux('display-message', '-p', '-t', this.name, '#{pane_pid}').trim());
  }

  /** Ends the pane's command and this tmux server. */
  close(): void {
    try {
      this.tmux('kill-server');
    } catch {
      // Already gone.
    }
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' });
  }
}

/** What a sandboxed CLI needs to run in tmux (a CliSandbox fits). */
export interface TmuxSandbox {
  root: string;
  workDir: string;
  configFile: string;
  env(extra?: Record<string, string>): NodeJS.ProcessEnv;
}

/**
 * Starts the built CLI's terminal UI in a tmux pane, against the sandbox's config, on `CLI_NODE`:
 * with `--ui tui` unless `ui` says otherwise (`null`: no `--ui` flag, the default front end).
 */
export function startTuiInTmux(
  cli: string,
  sandbox: TmuxSandbox,
  options: {
    args?: string[];
    env?: Record<string, string>;
    width?: number;
    height?: number;
    ui?: 'tui' | 'line' | null;
  } = {},
): TmuxTerminal {
  const ui = options.ui === undefined ? 'tui' : options.ui;
  return TmuxTerminal.start({
    argv: [
      CLI_NODE,
      cli,
      ...(ui === null ? [] : ['--ui', ui]),
      '--config-file',
      sandbox.configFile,
      '-w',
      sandbox.workDir,
      ...(options.args ?? []),
    ],
    env: sandbox.env(options.env),
    cwd: sandbox.workDir,
    scriptDir: sandbox.root,
    ...(options.width ? { width: options.width } : {}),
    ...(options.height ? { height: options.height } : {}),
  });
}

/** What the status line says while a turn runs. */
export const TUI_WORKING = 'working… (Esc cancels)';
/** The TUI's prompt is ready for input once its key hint shows. */
export const TUI_READY = 'Enter sends';
/** An approval (or question) panel takes keys once its key hint shows. */
export const TUI_PANEL_ARMED = '↑/↓ + Enter, or a number';
/** A picker (`/sessions`, `/undo`, `/model`, `/rewind`) takes keys once its key hint shows. */
export const TUI_PICKER_ARMED = '↑/↓ choose · Enter';
