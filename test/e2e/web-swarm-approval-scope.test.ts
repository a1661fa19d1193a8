import { describe, expect, it } from 'vitest';
import { useBrowser } from '../support/browser.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { itemsThatRan, scriptSwarmApprovals } from '../support/swarm-approval-scenario.js';
import { startWebServer } from '../support/web-server-client.js';

/** The web page's "approve for all agents of this swarm", in Debian's Chromium. */

const cli = useScriptedCli();
const browser = useBrowser();

describe('kimi-ts web: approve for all agents of this swarm', { timeout: 90_000 }, () => {
  it("covers the swarm's agents; the main agent and the next swarm are asked", async () => {
    const { sandbox, server } = await cli.setup([]);
    scriptSwarmApprovals(server);
    const web = await startWebServer(sandbox);
    cli.defer(() => web.stop());
    const watched = await browser.newPage();
    cli.defer(() => watched.context.close());
    const { page } = watched;
    await page.goto(`${web.base}#token=${web.token}`);
    await page.locator('.status-bar .conn.open').waitFor({ timeout: 20_000 });
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Run the swarms.');
    await box.press('Enter');

    const panel = page.locator('.panel.approval');
    const queue = page.getByTestId('approval-queue');
    /** Who asks in the panel on screen, once it is armed: its queue line, '' for the main agent. */
    const asker = async (): Promise<string | null> => {
      if ((await page.locator('.panel.approval[data-armed="true"]').count()) === 0) return null;
      return (await queue.count()) === 0 ? '' : ((await queue.textContent()) ?? '');
    };
    await expect.poll(asker, { timeout: 30_000 }).toContain('First swarm #');
    await page.getByRole('button', { name: 'Approve for all agents of this swarm' }).click();
    expect(await panel.textContent()).toContain('not the main agent, not another swarm');
    expect(await page.locator('.save-rule').isVisible()).toBe(false);
    await page.getByRole('button', { name: 'for the agents of this swarm' }).first().click();

    // The main agent's identical command is asked, without the swarm choice.
    await expect.poll(asker, { timeout: 30_000 }).toBe('');
    expect(await panel.textContent()).not.toContain('Approve for all agents of this swarm');
    await page.getByRole('button', { name: 'Approve once' }).click();

    // The second swarm: each of its two agents is asked.
    await expect.poll(asker, { timeout: 30_000 }).toContain('Second swarm #');
    const first = /a[0-9a-f]{8}/.exec((await asker()) ?? '')?.[0] ?? '?';
    await page.getByRole('button', { name: 'Approve once' }).click();
    await expect
      .poll(
        async () => {
          const line = await asker();
          return line?.includes('Second swarm #') === true && !line.includes(first);
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    await page.getByRole('button', { name: 'Approve once' }).click();

    await page.getByText('All swarms are done.').waitFor({ timeout: 30_000 });
    expect(itemsThatRan(server)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(watched.errors).toEqual([]);
  });
});
