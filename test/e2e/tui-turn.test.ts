import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type TmuxTerminal, TUI_PANEL_ARMED, TUI_READY } from '../support/tmux-terminal.js';
import { useTuiCli } from '../support/tui-cli.js';

const cli = useTuiCli();

function startTui(): TmuxTerminal {
  return cli.startTui();
}

describe('terminal UI: a turn', () => {
  it('shows a tool call live while its arguments stream, asks, runs it and renders the answer', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await cli.setup([
      {
        toolCalls: [{ id: 'c1', name: 'Shell', args: { command: 'echo hi > made.txt' } }],
        holdUntil: held,
      },
      {
        think: 'The file is made; say so.',
        text: '# Done\n\nI **made** the file:\n\n```sh\ncat made.txt\n```\n',
      },
    ]);
    const tui = startTui();
    await tui.waitFor(TUI_READY);
    tui.type('make a file');
    tui.press('Enter');

    // The call is on screen while the model is still streaming (the stream is held open).
    const live = await tui.waitFor('echo hi > made.txt');
    expect(live).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Shell echo hi > made\.txt/);
    expect(existsSync(join(cli.sandbox.workDir, 'made.txt'))).toBe(false);
    release();

    const panel = await tui.waitFor(TUI_PANEL_ARMED);
    expect(panel).toContain('1. Approve once');
    expect(panel).toContain('$ echo hi > made.txt');
    tui.type('1');

    // The whole frame, status line included (a capture may land between two writes of one frame).
    const done = await tui.waitUntil(
      (screen) => screen.includes('cat made.txt') && /context \d+%/.test(screen),
      'the answer and the status line',
    );
    expect(done).toContain('Done');
    expect(done).toContain('∴ thought (1 line)');
    expect(done).toMatch(/✓ Shell echo hi > made\.txt/);
    expect(done).not.toContain('**made**');
    expect(existsSync(join(cli.sandbox.workDir, 'made.txt'))).toBe(true);
    expect(done).toMatch(/context \d+%/);

    await tui.waitForIdle();
    tui.press('C-c');
    await tui.waitFor('press Ctrl-C again');
    tui.press('C-c');
    expect(await tui.waitForExit()).toBe(0);
  });

  it('is never chosen without a terminal or on TERM=dumb: the line shell runs instead', async () => {
    await cli.setup([]);
    const piped = await cli.sandbox.run(['--ui', 'tui'], { input: '/exit\n' });
    expect(piped.code).toBe(0);
    expect(piped.stdout).toContain('Type a request, /help for commands, /exit to leave.');

    const terminal = cli.startTui({ env: { TERM: 'dumb' } });
    await terminal.waitFor('Type a request, /help for commands, /exit to leave.');
    expect(terminal.screen()).not.toContain(TUI_READY);
    terminal.type('/exit');
    terminal.press('Enter');
    expect(await terminal.waitForExit()).toBe(0);
  });

  it('is the default on a terminal; --ui line gives the line shell there', async () => {
    await cli.setup([]);
    const byDefault = cli.startTui({ ui: null });
    await byDefault.waitFor(TUI_READY);
    byDefault.type('/exit');
    byDefault.press('Enter');
    expect(await byDefault.waitForExit()).toBe(0);
    byDefault.close();

    const line = cli.startTui({ ui: 'line' });
    await line.waitFor('Type a request, /help for commands, /exit to leave.');
    expect(line.screen()).not.toContain(TUI_READY);
    line.type('/exit');
    line.press('Enter');
    expect(await line.waitForExit()).toBe(0);
  });
});
