import { expect, it } from 'vitest';
import { useBrowser } from '../support/browser.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { startWebFor } from '../support/web-server-client.js';

// Proves: the web page's approval shows a WriteFile diff raw, so a bidi override in the code reorders what the person reads (the terminal UI shows it as ⟨U+202E⟩).

const cli = useScriptedCli();
const browser = useBrowser();

const RLO = '\u202e';
const PDI = '\u2069';
const LRI = '\u2066';
/** "Trojan Source": reads as a comment that ends before `rm`, but the `rm` line is inside no comment. */
const CONTENT = `#!/bin/sh\n# check the build ${RLO}${LRI}\nrm -rf ~/important ${PDI}${LRI}# done\n`;

it('a WriteFile approval on the web page shows bidi controls in the diff, not their effect', {
  timeout: 60_000,
}, async () => {
  await cli.setup([
    { toolCalls: [{ id: 'w1', name: 'WriteFile', args: { path: 'check.sh', content: CONTENT } }] },
    { text: 'written' },
  ]);
  const web = await startWebFor(cli);
  const watched = await browser.newPage();
  cli.defer(() => watched.context.close());
  const { page } = watched;
  await page.goto(`${web.base}#token=${web.token}`);
  await page.locator('.status-bar .conn.open').waitFor({ timeout: 20_000 });
  const message = page.getByRole('textbox', { name: 'Message' });
  await message.fill('write the check');
  await message.press('Enter');
  const panel = page.locator('.panel.approval');
  await panel.waitFor({ timeout: 20_000 });
  const shown = (await panel.textContent()) ?? '';
  expect(shown).toContain('check.sh');
  expect(shown).not.toContain(RLO);
  expect(shown).toContain('U+202E');
});
