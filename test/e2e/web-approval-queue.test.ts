import { describe, expect, it } from 'vitest';
import { useBrowser } from '../support/browser.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { AGENT_COMMANDS, twoAgentsScenario } from '../support/two-agents-scenario.js';
import { startWebServer } from '../support/web-server-client.js';

/** The web page's approval queue in Debian's Chromium: two agents asking at once. */

const cli = useScriptedCli();
const browser = useBrowser();

describe('kimi-ts web: one approval queue', { timeout: 60_000 }, () => {
  it('shows one approval at a time with its place and agent; an agent name with HTML stays text', async () => {
    const hostile = 'Agent <img src=x onerror="window.__pwned=true"> one';
    const scenario = await twoAgentsScenario({ one: hostile, two: 'Agent two' });
    cli.defer(() => scenario.close());
    const web = await startWebServer(scenario.sandbox);
    cli.defer(() => web.stop());
    const watched = await browser.newPage();
    cli.defer(() => watched.context.close());
    const { page } = watched;
    await page.goto(`${web.base}#token=${web.token}`);
    await page.locator('.status-bar .conn.open').waitFor({ timeout: 20_000 });
    await page.evaluate('window.__pwned = false');
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('run both agents');
    await box.press('Enter');

    const queue = page.getByTestId('approval-queue');
    await expect
      .poll(() => queue.textContent(), { timeout: 30_000 })
      .toMatch(/^1 of 2 · agent coder a[0-9a-f]{8} — /);
    expect(await page.locator('.panel.approval').count()).toBe(1);
    const firstLine = (await queue.textContent()) ?? '';
    const firstIsOne = firstLine.includes('<img');
    if (firstIsOne) expect(firstLine).toContain('Agent <img src=x onerror="window.__pwned=true">');
    const firstCommand = firstIsOne ? AGENT_COMMANDS.one : AGENT_COMMANDS.two;
    expect(await page.locator('.panel.approval').textContent()).toContain(firstCommand);
    await page.locator('.panel.approval[data-armed="true"]').waitFor();
    // The panel has the keys; `1` twice in a row: the second press must not answer the next entry.
    expect(await page.evaluate("document.activeElement?.closest('.approval') !== null")).toBe(true);
    await page.keyboard.press('1');
    await page.keyboard.press('1');

    // The other agent's entry, alone now: no count, its own agent, armed anew.
    await expect.poll(() => queue.textContent()).toMatch(firstIsOne ? /— Agent two$/ : /— Agent <img/);
    expect(await queue.textContent()).not.toContain(' of ');
    await page.locator('.panel.approval[data-armed="true"]').waitFor();
    // Armed, and still waiting: the early key answered nothing.
    expect(await queue.textContent()).toMatch(firstIsOne ? /— Agent two$/ : /— Agent <img/);
    expect(scenario[firstIsOne ? 'two' : 'one'].requests).toHaveLength(1);
    await page.getByRole('button', { name: 'Approve once' }).click();
    await page.getByText('Both agents reported.').waitFor();
    expect(await page.locator('footer img, main img').count()).toBe(0);
    expect(await page.evaluate('window.__pwned')).toBe(false);
    expect(watched.errors).toEqual([]);
  });
});
