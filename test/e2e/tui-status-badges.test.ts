import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { onlySessionDir } from '../support/session-files.js';
import type { TmuxTerminal } from '../support/tmux-terminal.js';
import { TUI_READY } from '../support/tmux-terminal.js';
import { useTuiCli } from '../support/tui-cli.js';

const cli = useTuiCli();

/** The status line: the last line on the screen (the TUI draws it under the prompt editor). */
const statusLine = (screen: string) => screen.split('\n').at(-1) ?? '';
/** Its badges, between the model and what is going on now (a running turn) or the token counts. */
const badges = (screen: string) => {
  const parts = statusLine(screen).split(' · ');
  const end = parts.findIndex(
    (part) => part.startsWith('context') || part.startsWith('↑') || part.includes('working…'),
  );
  return parts.slice(1, end === -1 ? undefined : end);
};
/** Waits until the status line shows exactly these badges. */
const waitForBadges = (tui: TmuxTerminal, expected: string[]) =>
  tui.waitUntil(
    (screen) => statusLine(screen).includes('cost n/a') && badges(screen).join(',') === expected.join(','),
    `the badges ${JSON.stringify(expected)}`,
  );

const planModeInState = async () => {
  const state = JSON.parse(
    await readFile(join(await onlySessionDir(cli.sandbox.home), 'state.json'), 'utf8'),
  );
  return (state as { plan_mode: boolean }).plan_mode;
};

// The sandbox is on by default (bubblewrap runs here), so its badge is there unless turned off.
describe('terminal UI: the status line badges', () => {
  it('--yolo shows yolo; /afk and /yolo switch their badges at once', async () => {
    await cli.setup([]);
    const tui = cli.startTui({ args: ['--yolo'] });
    await tui.waitFor(TUI_READY);
    await waitForBadges(tui, ['yolo', 'sandbox']);
    tui.type('/afk');
    tui.press('Enter');
    await tui.waitFor('AFK mode on');
    await waitForBadges(tui, ['yolo', 'afk', 'sandbox']);
    tui.type('/yolo');
    tui.press('Enter');
    await tui.waitFor('YOLO mode off');
    await waitForBadges(tui, ['afk', 'sandbox']);
    tui.type('/afk');
    tui.press('Enter');
    await tui.waitFor('AFK mode off');
    await waitForBadges(tui, ['sandbox']);
    // No model request: the commands are the session's own.
    expect(cli.server.requests).toHaveLength(0);
  });

  it.runIf(process.platform === 'linux')('--sandbox shows sandbox (bubblewrap), and it is real', async () => {
    const command = 'touch inside.txt; touch ../outside.txt';
    const tui = await cli.startWith(
      [{ toolCalls: [{ id: 's1', name: 'Shell', args: { command } }] }, { text: 'Ran.' }],
      { args: ['--sandbox', '--yolo'] },
    );
    await waitForBadges(tui, ['yolo', 'sandbox']);
    tui.type('go');
    tui.press('Enter');
    await tui.waitFor('Ran.');
    // The workspace is writable in the sandbox, the folder above it is not.
    expect(existsSync(join(cli.sandbox.workDir, 'inside.txt'))).toBe(true);
    expect(existsSync(join(cli.sandbox.workDir, '..', 'outside.txt'))).toBe(false);
  });
});

describe('terminal UI: the sandbox badge follows the sandbox', () => {
  it('--sandbox off: no badge', async () => {
    await cli.setup([]);
    const tui = cli.startTui({ args: ['--sandbox', 'off'] });
    await tui.waitFor(TUI_READY);
    await waitForBadges(tui, []);
  });

  it('no bubblewrap on PATH: `no sandbox`, and the fix is said', async () => {
    const { sandbox } = await cli.setup([]);
    const bin = join(sandbox.root, 'bin-without-bwrap');
    await mkdir(bin);
    for (const tool of ['bash', 'sh', 'git']) {
      const { stdout } = await promisify(execFile)('bash', ['-c', `command -v ${tool}`]);
      await symlink(stdout.trim(), join(bin, tool));
    }
    const tui = cli.startTui({ env: { PATH: bin } });
    await tui.waitFor(TUI_READY);
    await waitForBadges(tui, ['no sandbox']);
    await tui.waitFor('apt-get install bubblewrap');
  });
});

describe('terminal UI: Shift-Tab switches plan mode', () => {
  it('on: the badge shows, the model is in plan mode and a write is refused; off again', async () => {
    const write = { id: 'w1', name: 'WriteFile', args: { path: 'notes.txt', content: 'x' } };
    const tui = await cli.startWith([
      { toolCalls: [write] },
      { text: 'I will plan first.' },
      { text: 'Done.' },
    ]);
    await waitForBadges(tui, ['sandbox']);
    tui.press('BTab');
    await waitForBadges(tui, ['plan', 'sandbox']);
    await tui.waitFor('(plan mode on)');
    expect(await planModeInState()).toBe(true);
    tui.type('write the notes');
    tui.press('Enter');
    await tui.waitFor('I will plan first.');
    // The policy refused the write (no approval panel was needed to stop it) and told the model why.
    expect(existsSync(join(cli.sandbox.workDir, 'notes.txt'))).toBe(false);
    const first = JSON.stringify(cli.server.requests[0]?.body);
    expect(first).toContain('Plan mode is active. Until the user approves a plan');
    expect(JSON.stringify(cli.server.requests[1]?.body)).toContain(
      'Plan mode is active. You may only edit the current plan file',
    );
    await tui.waitForIdle();
    tui.press('BTab');
    await waitForBadges(tui, ['sandbox']);
    await tui.waitFor('(plan mode off)');
    expect(await planModeInState()).toBe(false);
  });

  it('while a turn runs it applies at once: the same turn’s next write is refused', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const write = { id: 'w1', name: 'WriteFile', args: { path: 'late.txt', content: 'x' } };
    // The first step reads (and is held open); the plan-mode switch comes before the second one writes.
    const look = { id: 'g1', name: 'Glob', args: { pattern: '*.md' } };
    const tui = await cli.startWith([
      { text: 'Thinking about it…', toolCalls: [look], holdUntil: held },
      { toolCalls: [write] },
      { text: 'Stopped.' },
    ]);
    await waitForBadges(tui, ['sandbox']);
    tui.type('go');
    tui.press('Enter');
    await tui.waitFor('Thinking about it…');
    tui.press('BTab');
    await waitForBadges(tui, ['plan', 'sandbox']);
    release();
    await tui.waitFor('Stopped.');
    expect(existsSync(join(cli.sandbox.workDir, 'late.txt'))).toBe(false);
    expect(JSON.stringify(cli.server.requests[2]?.body)).toContain(
      'Plan mode is active. You may only edit the current plan file',
    );
  });

  it('does nothing while a panel is up (the panel keeps its keys)', async () => {
    const touch = { id: 't1', name: 'Shell', args: { command: 'touch shifted.txt' } };
    const tui = await cli.startWith([{ toolCalls: [touch] }, { text: 'Fine.' }]);
    await waitForBadges(tui, ['sandbox']);
    tui.type('go');
    tui.press('Enter');
    await tui.waitFor('↑/↓ + Enter, or a number');
    tui.press('BTab');
    // A key not for the panel counts as typing in flight: the panel re-arms, then says so.
    await tui.waitFor('You were typing when this appeared');
    tui.type('3');
    await tui.waitFor(/✗ Shell touch shifted\.txt/);
    await tui.waitForIdle();
    await waitForBadges(tui, ['sandbox']);
    expect(await planModeInState()).toBe(false);
  });
});
