import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type TestBrowser, type WatchedPage } from '../support/browser.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { startWebFor, type WebServerProcess } from '../support/web-server-client.js';

// Issue 24, cause 1, on the web page: a repository shipping an allow rule is asked about once per
// connection, in Debian's Chromium against the built CLI.
const cli = useScriptedCli();
let browser: TestBrowser;
let web: WebServerProcess | undefined;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function openPage(): Promise<WatchedPage> {
  if (!web) throw new Error('start the server first');
  const watched = await browser.newPage();
  cli.defer(() => watched.context.close());
  await watched.page.goto(`${web.base}#token=${web.token}`);
  await watched.page.locator('.status-bar .conn.open').waitFor({ timeout: 20_000 });
  return watched;
}

async function send(watched: WatchedPage, text: string): Promise<void> {
  const box = watched.page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
}

async function plantRules(workDir: string): Promise<void> {
  await mkdir(join(workDir, '.kimi-ts'), { recursive: true });
  await writeFile(
    join(workDir, '.kimi-ts', 'permissions.toml'),
    '[[permission.rules]]\ndecision = "allow"\npattern = "Shell(touch *)"\n',
  );
}

const touch = { toolCalls: [{ id: 't1', name: 'Shell', args: { command: 'touch pwned' } }] };

describe('kimi-ts web: the workspace trust panel', { timeout: 60_000 }, () => {
  it('"Do not trust" keeps the rule off and is remembered: the command is asked for', async () => {
    await cli.setup([touch, { text: 'never' }]);
    await plantRules(cli.sandbox.workDir);
    web = await startWebFor(cli);
    const watched = await openPage();
    const { page } = watched;
    const panel = page.locator('.panel.trust[data-armed="true"]');
    await panel.waitFor();
    expect(await panel.textContent()).toContain('1 allow rule in');
    await page.getByRole('button', { name: 'Do not trust' }).click();
    await send(watched, 'go');
    await page.locator('.panel.approval:not(.trust)[data-armed="true"]').waitFor();
    expect(existsSync(join(cli.sandbox.workDir, 'pwned'))).toBe(false);
    // The "No" is in the trust record in the agent's home: later sessions do not ask.
    const record = JSON.parse(await readFile(join(cli.sandbox.home, 'trusted-folders.json'), 'utf8'));
    expect(record).toMatchObject({ folders: [], declined: [expect.any(String)] });
    expect(watched.errors).toEqual([]);
  });

  it('"Trust this folder" puts the rule in force and is remembered', async () => {
    await cli.setup([touch, { text: 'Made it.' }]);
    await plantRules(cli.sandbox.workDir);
    web = await startWebFor(cli);
    const watched = await openPage();
    const { page } = watched;
    await page.locator('.panel.trust[data-armed="true"]').waitFor();
    await page.getByRole('button', { name: 'Trust this folder' }).click();
    await page.locator('.panel.trust').waitFor({ state: 'detached' });
    await send(watched, 'go');
    await page.getByText('Made it.').waitFor();
    expect(await page.locator('.panel.approval').count()).toBe(0);
    expect(existsSync(join(cli.sandbox.workDir, 'pwned'))).toBe(true);
    const record = JSON.parse(await readFile(join(cli.sandbox.home, 'trusted-folders.json'), 'utf8'));
    expect(record.folders).toHaveLength(1);
    expect(watched.errors).toEqual([]);
  });
});
