import { expect, it } from 'vitest';
import { useBrowser } from '../support/browser.js';
import { CLI } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { startTuiInTmux } from '../support/tmux-terminal.js';
import { startWebFor } from '../support/web-server-client.js';

/**
 * What a session's subagents spend is the session's cost: the web page's figure and the terminal
 * UI's (resumed on the same session) count the subagent's steps, at the session's price.
 */

const cli = useScriptedCli();
const browser = useBrowser();

/** A report long enough that the subagent is not asked for a fuller one. */
const REPORT = `The files were read. ${'Everything was checked carefully and it worked. '.repeat(5)}`;

it("the web page and the terminal UI count a subagent's steps in the session's cost", {
  timeout: 90_000,
}, async () => {
  await cli.setup(
    [
      {
        toolCalls: [
          {
            id: 'call-agent',
            name: 'Agent',
            args: { description: 'Read the files', prompt: 'Read the files.', subagent_type: 'coder' },
          },
        ],
        usage: { prompt_tokens: 10_000, completion_tokens: 1_000 },
      },
      // The subagent's one step.
      { text: REPORT, usage: { prompt_tokens: 20_000, completion_tokens: 2_000 } },
      {
        text: 'Done with the help of a subagent.',
        usage: { prompt_tokens: 30_000, completion_tokens: 3_000 },
      },
    ],
    { extraToml: 'price = { input = 2, output = 10 }' },
  );
  const web = await startWebFor(cli);
  const watched = await browser.newPage();
  cli.defer(() => watched.context.close());
  const { page } = watched;
  await page.goto(`${web.base}#token=${web.token}`);
  await page.locator('.status-bar .conn.open').waitFor({ timeout: 20_000 });
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('read the files with a subagent');
  await box.press('Enter');
  await page.getByText('Done with the help of a subagent.').waitFor();
  await page.locator('.working').waitFor({ state: 'detached' });
  // Root: 10k in, 1k out ($0.03) and 30k in, 3k out ($0.09); its subagent: 20k in, 2k out ($0.06).
  await page.locator('[data-testid=cost]', { hasText: 'cost $0.1800' }).waitFor({ timeout: 10_000 });
  expect(cli.server.requests).toHaveLength(3);
  const sessions = (await (await web.api('/api/sessions')).json()) as { sessions: { id: string }[] };
  const id = sessions.sessions[0]!.id;
  await web.stop();
  const tui = startTuiInTmux(CLI, cli.sandbox, { args: ['-S', id] });
  cli.defer(() => tui.close());
  expect(await tui.waitFor('cost $')).toContain('cost $0.1800');
});
