import { describe, expect, it } from 'vitest';
import { TUI_PANEL_ARMED, TUI_READY } from '../support/tmux-terminal.js';
import { useTuiCli } from '../support/tui-cli.js';
import { AGENT_COMMANDS, AGENT_DESCRIPTIONS, twoAgentsScenario } from '../support/two-agents-scenario.js';

const cli = useTuiCli();

/** The queue line of the panel on screen: `1 of 2 · agent coder a1b2c3d4 — Agent one`. */
const queueLine = /(?:(\d) of (\d) · )?agent coder (a[0-9a-f]{8}) — (Agent (?:one|two))/;

describe('terminal UI: one approval queue', () => {
  it('two agents asking at once: one panel at a time, in order, each saying its place and its agent', async () => {
    const scenario = await twoAgentsScenario();
    cli.defer(() => scenario.close());
    const tui = cli.startTui({ sandbox: scenario.sandbox, width: 160, height: 50 });
    await tui.waitFor(TUI_READY);
    tui.type('run both agents');
    tui.press('Enter');

    // Both wait: the first panel counts two.
    const first = await tui.waitUntil(
      (screen) => /1 of 2 · agent coder/.test(screen) && screen.includes(TUI_PANEL_ARMED),
      'the first of two approvals, armed',
    );
    const [, , , firstId, firstName] = queueLine.exec(first) ?? [];
    const firstAgent = firstName === AGENT_DESCRIPTIONS.one ? 'one' : 'two';
    const secondAgent = firstAgent === 'one' ? 'two' : 'one';
    expect(first).toContain(`$ ${AGENT_COMMANDS[firstAgent]}`);
    expect(first).not.toContain(`$ ${AGENT_COMMANDS[secondAgent]}`);
    tui.type('1');

    // The next entry: the other agent, alone now (no count), armed anew before a key counts.
    const second = await tui.waitUntil(
      (screen) => screen.includes(`— ${AGENT_DESCRIPTIONS[secondAgent]}`) && screen.includes(TUI_PANEL_ARMED),
      'the second approval, armed',
    );
    const [, position, , secondId] = queueLine.exec(second) ?? [];
    expect(position).toBeUndefined();
    expect(secondId).not.toBe(firstId);
    expect(second).toContain(`$ ${AGENT_COMMANDS[secondAgent]}`);
    tui.type('3');

    await tui.waitFor('Both agents reported.');
    // Each answer went to its own agent: the first ran its command, the second was refused.
    const told = (name: 'one' | 'two') => JSON.stringify(scenario[name].requests[1]?.body);
    expect(told(firstAgent)).toContain(`from-agent-${firstAgent}\\n`);
    expect(told(secondAgent)).not.toContain(`from-agent-${secondAgent}\\n`);
  });
});
