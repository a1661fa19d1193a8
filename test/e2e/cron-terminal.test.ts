import { describe, expect, it } from 'vitest';
import { TUI_READY } from '../support/tmux-terminal.js';
import { useTuiCli } from '../support/tui-cli.js';

const cli = useTuiCli();

/** The model schedules a one-shot a second ahead, then the fire's turn answers. */
const SCHEDULING_TURNS = [
  {
    toolCalls: [
      {
        id: 'sched',
        name: 'CronCreate',
        args: { delay_seconds: 1, prompt: 'check the deploy \u001b[2J now', recurring: false },
      },
    ],
  },
  { text: 'Scheduled it.' },
  { text: 'The deploy looks healthy.' },
];

describe('scheduled prompts in the terminal front ends', () => {
  it('terminal UI: a one-shot fires as a turn of its own, shown as from a schedule and terminal-safe', async () => {
    await cli.setup(SCHEDULING_TURNS);
    const tui = cli.startTui({ args: ['--yolo'] });
    await tui.waitFor(TUI_READY);
    tui.type('remind me in a second');
    tui.press('Enter');
    const fired = await tui.waitFor('The deploy looks healthy.');
    expect(fired).toMatch(/scheduled prompt [0-9a-f]{8} \(once, made by the model\)/);
    expect(fired).toContain('check the deploy ␛[2J now');
    expect(fired.indexOf('Scheduled it.')).toBeLessThan(fired.indexOf('scheduled prompt'));

    // The person's own shortcut: /loop schedules, lists and stops.
    await tui.waitForIdle();
    tui.type('/loop 0s nope');
    tui.press('Enter');
    await tui.waitFor('The interval must be longer than zero.');
    tui.type('/loop 5m watch CI');
    tui.press('Enter');
    const scheduled = await tui.waitUntil(
      (screen) => /Scheduled [0-9a-f]{8}: every 5m/.test(screen),
      '/loop answer',
    );
    const id = /Scheduled ([0-9a-f]{8}): every 5m/.exec(scheduled)?.[1];
    tui.type(`/loop stop ${id}`);
    tui.press('Enter');
    await tui.waitFor(`Stopped ${id}.`);
    await tui.waitForIdle();
    tui.press('C-c');
    await tui.waitFor('press Ctrl-C again');
    tui.press('C-c');
  });

  it('line shell: the fire runs while the shell waits for a request, with its prompt shown', async () => {
    await cli.setup(SCHEDULING_TURNS);
    const shell = cli.startTui({ args: ['--yolo'], ui: 'line' });
    await shell.waitFor('Type a request');
    shell.type('remind me in a second');
    shell.press('Enter');
    const fired = await shell.waitFor('The deploy looks healthy.');
    expect(fired).toMatch(/scheduled prompt [0-9a-f]{8} \(once, made by the model\)/);
    expect(fired).toContain('› check the deploy ␛[2J now');
    shell.type('/exit');
    shell.press('Enter');
  });
});
