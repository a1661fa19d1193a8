import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gate } from '../support/loopback-server.js';
import { onlySessionDir } from '../support/session-files.js';
import { TUI_READY } from '../support/tmux-terminal.js';
import { useTuiCli } from '../support/tui-cli.js';

const cli = useTuiCli();

/** The status line: the last line on the screen (the TUI draws it under the prompt editor). */
const statusLine = (screen: string) => screen.split('\n').at(-1) ?? '';

describe('terminal UI: the goal on the status line', () => {
  it('shows the goal while it runs, with its budgets, and its end (active → complete)', async () => {
    const held = gate();
    const { server } = await cli.setup([
      // The first goal turn's answer is held: the goal is active meanwhile.
      { text: 'Looking at the notes.', holdUntil: held.promise },
      // The continuation turn claims completion (no check: the model's word).
      { toolCalls: [{ id: 'claim', name: 'UpdateGoal', args: { status: 'complete' } }] },
      { text: 'The goal is complete.' },
    ]);
    const tui = cli.startTui({ width: 200 });
    await tui.waitFor(TUI_READY);
    expect(statusLine(tui.screen())).not.toContain('goal');
    tui.type('/goal --max-turns 4 tidy the notes');
    tui.press('Enter');
    const active = await tui.waitUntil(
      (screen) => statusLine(screen).includes('goal active: tidy the notes · turns 1/4'),
      'the active goal on the status line',
    );
    expect(statusLine(active)).toMatch(/tokens \d+\/∞ · time \d+:\d\d\/∞/);
    held.open();
    await tui.waitFor('The goal is complete.');
    const done = await tui.waitUntil(
      (screen) => statusLine(screen).includes('goal complete: tidy the notes'),
      'the completed goal on the status line',
    );
    expect(statusLine(done)).not.toContain('goal active');
    expect(server.requests).toHaveLength(3);
  });

  it('a goal whose process died while it ran comes back paused on the status line of the resumed session', async () => {
    const held = gate();
    await cli.setup([{ text: 'Never finished.', holdUntil: held.promise }]);
    const tui = cli.startTui({ width: 200 });
    await tui.waitFor(TUI_READY);
    tui.type('/goal tidy the notes');
    tui.press('Enter');
    await tui.waitUntil(
      (screen) => statusLine(screen).includes('goal active: tidy the notes'),
      'the active goal on the status line',
    );
    // The goal's record is on disk (written after the event that drew the line)...
    const goalFile = join(await onlySessionDir(cli.sandbox.home), 'goal.jsonl');
    await expect
      .poll(() => readFile(goalFile, 'utf8').catch(() => ''), { timeout: 15_000 })
      .toContain('"active"');
    // ...then the process dies with the goal active: nothing could tell anyone it stopped.
    process.kill(tui.pid(), 'SIGKILL');
    await expect(tui.waitForExit()).rejects.toThrow(/signal 9/);
    tui.close();

    const resumed = cli.startTui({ width: 200, args: ['-C'] });
    await resumed.waitFor(TUI_READY);
    const screen = await resumed.waitUntil(
      (text) => statusLine(text).includes('goal paused: tidy the notes'),
      'the paused goal on the status line',
    );
    expect(statusLine(screen)).not.toContain('goal active');
    held.open();
  });
});
