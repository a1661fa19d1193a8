import { describe, expect, it } from 'vitest';
import { useBrowser, type WatchedPage } from '../support/browser.js';
import { gate } from '../support/loopback-server.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { startWebFor } from '../support/web-server-client.js';

/** The goal panel of `kimi-ts web` in Debian's Chromium, live from `GoalUpdated`. */

const cli = useScriptedCli();
const browser = useBrowser();

async function openPage(): Promise<WatchedPage> {
  const web = await startWebFor(cli);
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

describe('kimi-ts web: the goal panel', { timeout: 60_000 }, () => {
  it('shows the goal live (active with its budgets, then complete), its HTML objective as text', async () => {
    const held = gate();
    await cli.setup([
      // The first goal turn's answer is held: the goal is active meanwhile.
      { text: 'Looking at the notes.', holdUntil: held.promise },
      // The continuation turn claims completion (no check: the model's word).
      { toolCalls: [{ id: 'claim', name: 'UpdateGoal', args: { status: 'complete' } }] },
      { text: 'The goal is complete.' },
    ]);
    const watched = await openPage();
    const { page } = watched;
    await page.evaluate('window.__pwned = false');
    const objective = 'tidy <img src=x onerror="window.__pwned=true"> the notes\u200b';
    await send(watched, `/goal --max-turns 3 --max-time 30m ${objective}`);

    const panel = page.getByRole('region', { name: 'goal' });
    await panel.waitFor();
    await expect.poll(() => panel.getAttribute('data-state')).toBe('active');
    await expect.poll(() => panel.locator('[data-budget="turns"]').textContent()).toBe('turns 1/3');
    expect(await panel.locator('[data-budget="time"]').textContent()).toMatch(/^time \d+:\d\d\/30:00$/);
    expect(await panel.locator('[data-budget="tokens"]').textContent()).toMatch(/^tokens \d+\/∞$/);
    // The objective is text: no element was made of it, its invisible character shows as a marker.
    expect(await panel.locator('.goal-objective').textContent()).toBe(
      'tidy <img src=x onerror="window.__pwned=true"> the notes⟨U+200B⟩',
    );
    expect(await page.locator('main img, footer img').count()).toBe(0);

    held.open();
    await page.getByText('The goal is complete.', { exact: true }).last().waitFor();
    await expect.poll(() => panel.getAttribute('data-state')).toBe('complete');
    expect(await panel.locator('.goal-state').textContent()).toBe('Goal complete');
    expect(await page.evaluate('window.__pwned')).toBe(false);
    expect(watched.errors).toEqual([]);
  });
});
