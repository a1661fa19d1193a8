import { describe, expect, it } from 'vitest';
import { itemsThatRan, SWARM_COMMAND, scriptSwarmApprovals } from '../support/swarm-approval-scenario.js';
import { TUI_PANEL_ARMED, TUI_READY } from '../support/tmux-terminal.js';
import { useTuiCli } from '../support/tui-cli.js';

const cli = useTuiCli();

/** Who asks in the approval panel on screen: its queue line (`… agent coder a1b2c3d4 — First swarm #2`), '' for the main agent; null when no armed panel shows. */
function askingLine(screen: string): string | null {
  if (!screen.includes(TUI_PANEL_ARMED)) return null;
  const lines = screen.split('\n');
  const header = lines.findLastIndex((line) => line.includes('? Shell wants to run command'));
  if (header < 0) return null;
  const above = lines[header - 1] ?? '';
  return /agent coder a[0-9a-f]{8}/.test(above) ? above.trim() : '';
}

describe('terminal UI: approve for all agents of this swarm', () => {
  it("covers that swarm's agents; the main agent and the next swarm are asked", async () => {
    const { sandbox, server } = await cli.setup([]);
    scriptSwarmApprovals(server);
    const tui = cli.startTui({ sandbox, width: 160, height: 50 });
    await tui.waitFor(TUI_READY);
    tui.type('Run the swarms.');
    tui.press('Enter');

    const first = await tui.waitUntil(
      (screen) => askingLine(screen)?.includes('First swarm #') === true,
      "a first-swarm agent's approval, armed",
    );
    expect(first).toContain(`$ ${SWARM_COMMAND}`);
    expect(first).toContain('5. Approve for all agents of this swarm');
    tui.type('5');
    const scopes = await tui.waitUntil(
      (screen) => screen.includes('for the agents of this swarm') && screen.includes(TUI_PANEL_ARMED),
      'the scopes for the swarm',
    );
    expect(scopes).toContain('not the main agent, not another swarm');
    tui.type('1');

    // The main agent's identical command is asked (no queue line: the main agent), without choice 5.
    const main = await tui.waitUntil((screen) => askingLine(screen) === '', "the main agent's approval");
    expect(main).not.toContain('5. Approve for all agents of this swarm');
    tui.type('1');

    // The second swarm: each of its two agents is asked.
    const secondLine = await tui.waitUntil(
      (screen) => askingLine(screen)?.includes('Second swarm #') === true,
      "a second-swarm agent's approval",
    );
    const firstAsker = /agent coder (a[0-9a-f]{8})/.exec(askingLine(secondLine) ?? '')?.[1];
    tui.type('1');
    await tui.waitUntil((screen) => {
      const line = askingLine(screen);
      return line?.includes('Second swarm #') === true && !line.includes(firstAsker ?? '?');
    }, "the other second-swarm agent's approval");
    tui.type('1');

    await tui.waitFor('All swarms are done.');
    expect(itemsThatRan(server)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});
