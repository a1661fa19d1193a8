import { afterEach, describe, expect, it } from 'vitest';
import {
  BACKGROUND_COMMAND,
  type BackgroundAgentScenario,
  backgroundAgentScenario,
} from '../support/background-agent-scenario.js';
import { CLI } from '../support/run-cli.js';
import { startTuiInTmux, type TmuxTerminal, TUI_PANEL_ARMED, TUI_READY } from '../support/tmux-terminal.js';

let scenario: BackgroundAgentScenario | undefined;
let terminal: TmuxTerminal | undefined;

afterEach(async () => {
  terminal?.close();
  terminal = undefined;
  await scenario?.close();
  scenario = undefined;
});

describe('terminal UI: background agents', () => {
  it('asks at once when a background agent needs approval between turns', async () => {
    scenario = await backgroundAgentScenario();
    const tui = startTuiInTmux(CLI, scenario.sandbox);
    terminal = tui;
    await tui.waitFor(TUI_READY);
    tui.type('start it');
    tui.press('Enter');
    await tui.waitFor('Started it.');
    await tui.waitFor('⚙ tasks: 1');

    scenario.releaseWorker();
    const panel = await tui.waitFor(TUI_PANEL_ARMED);
    expect(panel).toContain('(background agent coder)');
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
