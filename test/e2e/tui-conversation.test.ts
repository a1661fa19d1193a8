import { describe, expect, it } from 'vitest';
import type { ScriptedTurn } from '../support/scripted-llm-server.js';
import { type TmuxTerminal, TUI_READY } from '../support/tmux-terminal.js';
import { useTuiCli } from '../support/tui-cli.js';

const cli = useTuiCli();

function start(args: string[] = []): TmuxTerminal {
  return cli.startTui({ args });
}

function held(): { promise: Promise<void>; release: () => void } {
  let release: () => void = () => {};
  const promise = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { promise, release };
}

const bodyOf = (n: number) => JSON.stringify(cli.server.requests[n]?.body);

describe('terminal UI: a conversation', () => {
  it('asks AskUserQuestion in a panel and sends the chosen option to the model', async () => {
    const ask: ScriptedTurn = {
      toolCalls: [
        {
          id: 'q1',
          name: 'AskUserQuestion',
          args: {
            questions: [
              {
                question: 'Which database?',
                header: 'Storage',
                options: [
                  { label: 'SQLite', description: 'one file' },
                  { label: 'Postgres', description: 'a server' },
                ],
              },
            ],
          },
        },
      ],
    };
    await cli.setup([ask, { text: 'Postgres it is.' }]);
    const tui = start();
    await tui.waitFor(TUI_READY);
    tui.type('set up storage');
    tui.press('Enter');
    const panel = await tui.waitFor('Esc skips');
    expect(panel).toContain('[Storage] Which database?');
    expect(panel).toContain('2. Postgres — a server');
    tui.type('2');
    await tui.waitFor('Postgres it is.');
    expect(bodyOf(1)).toContain('Postgres');
  });

  it('Enter during a turn queues the line for the next turn; Ctrl-S steers the running one', async () => {
    const hold = held();
    await cli.setup([
      { toolCalls: [{ id: 's1', name: 'Shell', args: { command: 'true' } }], holdUntil: hold.promise },
      { text: 'Steered answer.' },
      { text: 'Answer to the queued line.' },
    ]);
    const tui = start(['--yolo']);
    await tui.waitFor(TUI_READY);
    tui.type('first request');
    tui.press('Enter');
    await tui.waitFor('Shell true');

    tui.type('and use tabs');
    tui.press('C-s');
    await tui.waitFor('(steer) and use tabs');
    tui.type('second request');
    tui.press('Enter');
    await tui.waitFor('queued: second request');
    hold.release();

    await tui.waitFor('Answer to the queued line.');
    expect(bodyOf(1)).toContain('and use tabs');
    expect(bodyOf(1)).not.toContain('second request');
    expect(bodyOf(2)).toContain('second request');
    expect(tui.screen()).not.toContain('queued: second request');
    // Shown when sent, not again when the turn took it in.
    expect(tui.screen().split('(steer) and use tabs')).toHaveLength(2);
  });

  it('a resumed session (-C) shows the conversation so far, rendered the same way', async () => {
    await cli.setup([{ text: 'The first answer, with **bold**.' }, { text: 'The second answer.' }]);
    const first = start();
    await first.waitFor(TUI_READY);
    first.type('first question');
    first.press('Enter');
    await first.waitFor('The first answer, with bold.');
    await first.waitForIdle();
    first.type('/exit');
    first.press('Enter');
    expect(await first.waitForExit()).toBe(0);
    first.close();

    const resumed = start(['-C']);
    await resumed.waitFor(TUI_READY);
    // The prompt is up at once; the conversation so far is drawn when the session is built.
    const screen = await resumed.waitFor('› first question');
    expect(screen).toContain('The first answer, with bold.');
    resumed.type('second question');
    resumed.press('Enter');
    await resumed.waitFor('The second answer.');
    expect(bodyOf(1)).toContain('first question');
  });

  it('a retried step shows a banner with the reason and the wait', async () => {
    await cli.setup([{ status: 429, headers: { 'retry-after': '0' } }, { text: 'After the retry.' }]);
    const tui = start();
    await tui.waitFor(TUI_READY);
    tui.type('go');
    tui.press('Enter');
    const screen = await tui.waitFor('After the retry.');
    expect(screen).toMatch(/↻ APIStatusError \(HTTP 429\): retrying in \d+\.\ds \(attempt 2 of \d+\)/);
  });
});
