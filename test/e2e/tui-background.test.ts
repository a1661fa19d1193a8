import { describe, expect, it } from 'vitest';
import { BACKGROUND_COMMAND, backgroundAgentScenario } from '../support/background-agent-scenario.js';
import { TUI_PANEL_ARMED, TUI_READY } from '../support/tmux-terminal.js';
import { useTuiCli } from '../support/tui-cli.js';

const cli = useTuiCli();

describe('terminal UI: background agents', () => {
  it('asks at once when a background agent needs approval between turns', async () => {
    const scenario = await backgroundAgentScenario();
    cli.defer(() => scenario.close());
    const tui = cli.startTui({ sandbox: scenario.sandbox });
    await tui.waitFor(TUI_READY);
    tui.type('start it');
    tui.press('Enter');
    await tui.waitFor('Started it.');
    await tui.waitFor('⚙ tasks: 1');

    scenario.releaseWorker();
    const panel = await tui.waitFor(TUI_PANEL_ARMED);
    expect(panel).toMatch(/background agent coder a[0-9a-f]{8} — Background command/);
    expect(panel).toContain(`$ ${BACKGROUND_COMMAND}`);
    tui.type('1');

    scenario.pushWaitForTask();
    tui.type('how did it go?');
    tui.press('Enter');
    await tui.waitFor('Read it.');
    const taskOutput = JSON.stringify(scenario.root.requests.at(-1)?.body);
    expect(taskOutput).toContain('status: completed');
  });
});
