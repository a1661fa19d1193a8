import { expect, it } from 'vitest';
import { TUI_READY } from '../support/tmux-terminal.js';
import { useTuiCli } from '../support/tui-cli.js';

const cli = useTuiCli();

it('kimi-ts "fix the bug" opens the TUI with the prompt sent', async () => {
  const { server } = await cli.setup([{ text: 'Looking at the bug now.' }]);
  const tui = cli.startTui({ args: ['fix the bug'] });
  await tui.waitFor(TUI_READY);
  const screen = await tui.waitFor('Looking at the bug now.');
  expect(screen).toContain('fix the bug');
  expect(JSON.stringify(server.requests[0]?.body)).toContain('fix the bug');
  expect(server.requests).toHaveLength(1);
});
