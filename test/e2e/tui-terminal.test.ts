import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { liveProcesses } from '../support/processes.js';
import type { ScriptedTurn } from '../support/scripted-llm-server.js';
import { TUI_READY } from '../support/tmux-terminal.js';
import { type TuiOptions, useTuiCli } from '../support/tui-cli.js';

const cli = useTuiCli();

const startWith = (turns: ScriptedTurn[], options: TuiOptions = {}) => cli.startWith(turns, options);

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A sleep only these tests start, found on the host by its command line: in the sandbox the command
 * has a PID namespace of its own, so `$$` is not the host's pid.
 */
const SLEEP = `300.${process.pid}`;

function hostPidOf(command: string): number {
  const found = liveProcesses().filter((info) => info.command === command);
  if (found.length !== 1) throw new Error(`expected one \`${command}\`, found ${found.length}`);
  return found[0]!.pid;
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 40));
  }
}

/** The colours and bold/dim set by the SGR sequences of a captured screen (resets and inverse left out). */
function styles(screen: string): string[] {
  const found: string[] = [];
  // biome-ignore lint/suspicious/noControlCharactersInRegex: reading SGR escapes
  for (const [, params] of screen.matchAll(/\u001b\[([0-9;]*)m/g)) {
    for (const param of (params ?? '').split(';')) {
      const n = Number(param);
      if (n === 1 || n === 2 || (n >= 30 && n <= 38) || (n >= 90 && n <= 97)) found.push(param);
    }
  }
  return found;
}

describe('terminal UI: the terminal', () => {
  it('Esc cancels a turn during a long command, and the command is gone', async () => {
    const tui = await startWith(
      [
        {
          toolCalls: [
            { id: 's', name: 'Shell', args: { command: `echo started > pid.txt; exec sleep ${SLEEP}` } },
          ],
        },
        { text: 'next turn' },
      ],
      { args: ['--yolo'] },
    );
    tui.type('run it');
    tui.press('Enter');
    const pidFile = join(cli.sandbox.workDir, 'pid.txt');
    await until(
      () => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '',
      'the command to start',
    );
    const pid = hostPidOf(`sleep ${SLEEP}`);
    expect(isAlive(pid)).toBe(true);
    await tui.waitFor(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Shell/);

    tui.press('Escape');
    await tui.waitFor('(interrupted)');
    await until(() => !isAlive(pid), `process ${pid} to end`);
    // The prompt works again after the cancel.
    tui.type('again');
    tui.press('Enter');
    await tui.waitFor('next turn');
  });

  it('shows control characters from the model inert: no escape sequence reaches the terminal', async () => {
    const hostile = 'Look: \x1b]0;pwned\x07\x1b[2J\x1b[31mRED\x1b[0m and \x1b[1A up, bell\x07, \u202eevil';
    const tui = await startWith([{ text: hostile }]);
    tui.type('hi');
    tui.press('Enter');
    const screen = await tui.waitFor('evil');
    expect(screen).toContain('Look: ␛]0;pwned␇␛[2J␛[31mRED␛[0m and ␛[1A up, bell␇, ⟨U+202E⟩evil');
    // The screen was not cleared (the greeting is still there) and the title is untouched.
    expect(screen).toContain('kimi-ts — session');
    const styled = tui.screenWithEscapes();
    expect(styled).not.toContain('\x1b[31mRED');
    expect(tui.title()).not.toContain('pwned');
  });

  it('re-flows the conversation when the terminal is resized', async () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    const tui = await startWith([{ text: `A long line: ${words} END` }], { width: 120 });
    tui.type('hi');
    tui.press('Enter');
    const wide = await tui.waitFor('END');
    const lineOf = (screen: string) => screen.split('\n').filter((l) => l.includes('word'));
    expect(lineOf(wide).length).toBeLessThanOrEqual(3);
    tui.resize(50, 40);
    const narrow = await tui.waitUntil(
      (s) =>
        s.includes('END') &&
        s.includes('e2e · sandbox · context') &&
        s.split('\n').every((line) => line.length <= 50) &&
        lineOf(s).length >= 6,
      'the answer wrapped to 50 columns',
    );
    expect(narrow).toContain('word39 END');
    // The status line is cut to the new width, not wrapped.
    expect(narrow).toContain('e2e · sandbox · context');
  });

  it('NO_COLOR: no colour at all; otherwise the prompt and marks are coloured', async () => {
    const plain = await startWith([{ text: '**bold** and `code`' }], { env: { NO_COLOR: '1' } });
    plain.type('hi');
    plain.press('Enter');
    await plain.waitFor('code');
    expect(styles(plain.screenWithEscapes())).toEqual([]);
    plain.close();

    const coloured = cli.startTui();
    await coloured.waitFor(TUI_READY);
    expect(styles(coloured.screenWithEscapes()).length).toBeGreaterThan(0);
  });

  it('!command runs for the user alone (output inert, nothing sent to the model); Ctrl-E expands a result', async () => {
    const tui = await startWith(
      [
        {
          toolCalls: [
            { id: 's', name: 'Shell', args: { command: 'for i in $(seq 1 9); do echo l$i; done' } },
          ],
        },
        { text: 'Printed.' },
      ],
      { args: ['--yolo'] },
    );
    tui.type("!echo from-bang; printf '\\033[31mred\\n'");
    tui.press('Enter');
    // The typed line also shows "from-bang": wait for the command's own header and output.
    await tui.waitFor('! echo from-bang');
    await tui.waitFor(/^from-bang$/m);
    await tui.waitFor('␛[31mred');
    expect(cli.server.requests).toHaveLength(0);

    tui.type('print lines');
    tui.press('Enter');
    // Nine lines: the first and last three show, the middle ones after Ctrl-E.
    const done = await tui.waitFor('Printed.');
    expect(done).toMatch(/^\s+l2$/m);
    expect(done).not.toMatch(/^\s+l5$/m);
    tui.press('C-e');
    await tui.waitFor(/^\s+l5$/m);
  });

  it('/exit during a turn cancels it and leaves, with nothing left running', async () => {
    const tui = await startWith(
      [
        {
          toolCalls: [
            { id: 's', name: 'Shell', args: { command: `echo started > pid.txt; exec sleep ${SLEEP}` } },
          ],
        },
      ],
      { args: ['--yolo'] },
    );
    tui.type('run it');
    tui.press('Enter');
    const pidFile = join(cli.sandbox.workDir, 'pid.txt');
    await until(
      () => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '',
      'the command to start',
    );
    const pid = hostPidOf(`sleep ${SLEEP}`);
    tui.type('/exit');
    tui.press('Enter');
    expect(await tui.waitForExit()).toBe(0);
    await until(() => !isAlive(pid), `process ${pid} to end`);
  });
});
