import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBrowser, type WatchedPage } from '../support/browser.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { startWebServer, type WebServerProcess } from '../support/web-server-client.js';

/**
 * What a first-time user of `kimi-ts web` tripped on (issue 27): a command's output hidden, arguments
 * as escaped JSON, no sign of a long turn still running, the work dir and the folder switch, the
 * session list, the connection's words, a phone-width page after a resize.
 */

const cli = useScriptedCli();
const browser = useBrowser();

async function startWeb(main: string[] = []): Promise<WebServerProcess> {
  const web = await startWebServer(cli.sandbox, [], main);
  cli.defer(() => web.stop());
  return web;
}

async function openPage(
  web: WebServerProcess,
  options: { width?: number; height?: number } = {},
): Promise<WatchedPage> {
  const watched = await browser.newPage(options);
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

/** 21 lines of output, the command waiting for a `go` file first (so the turn runs a while). */
const COMMAND =
  'while [ ! -f go ]; do sleep 0.1; done\nfor i in $(seq 1 20); do echo "row-$i"; done; echo \'<b>last</b> "quoted"\'';

describe('kimi-ts web: the first hour', { timeout: 90_000 }, () => {
  it('shows a running turn with a spinner and elapsed time, then a command folded to its first and last lines, arguments as fields', async () => {
    await cli.setup([
      { toolCalls: [{ id: 's1', name: 'Shell', args: { command: COMMAND, timeout: 60 } }] },
      { text: 'Listed the rows.' },
    ]);
    const web = await startWeb(['--yolo']);
    const watched = await openPage(web);
    const { page } = watched;
    expect(await page.locator('.status-bar .conn').textContent()).toBe('Connected');

    await send(watched, 'list the rows');
    const working = page.locator('.working');
    await working.locator('.spinner').waitFor();
    // The elapsed time moves while the command waits.
    await expect
      .poll(() => page.locator('.working .elapsed').textContent(), { timeout: 30_000 })
      .toMatch(/^0:0[2-9]$/);
    expect(await working.textContent()).toContain('working…');

    // The arguments as fields: the command's newline is a line break, not `\n` in a JSON string.
    const args = page.locator('.tool dl.tool-args');
    await args.waitFor();
    expect(await args.locator('dt').allTextContents()).toEqual(['command', 'timeout']);
    expect(await args.locator('dd').first().textContent()).toBe(COMMAND);
    expect(await args.locator('dd').nth(1).textContent()).toBe('60');
    expect(await page.locator('.tool').textContent()).not.toContain('\\n');
    await watched.screenshot('web-running');

    await writeFile(join(cli.sandbox.workDir, 'go'), '');
    await page.getByText('Listed the rows.').waitFor();
    await working.waitFor({ state: 'detached' });

    // Folded: the card closed, its first and last lines under it, the rest counted.
    const preview = page.locator('pre.tool-preview');
    await preview.waitFor();
    expect(await preview.textContent()).toBe(
      'row-1\nrow-2\nrow-3\n… 15 lines hidden (show all)\nrow-19\nrow-20\n<b>last</b> "quoted"',
    );
    // Text, not markup.
    expect(await preview.locator('b').count()).toBe(0);
    expect(await page.locator('.tool .tool-output').isVisible()).toBe(false);
    await watched.screenshot('web-folded-output', { docs: 'web-page.png' });

    // "show all" opens the card with the whole output; the preview gives way.
    await preview.getByRole('button', { name: /15 lines hidden/ }).click();
    await page.locator('.tool .tool-output').waitFor({ state: 'visible' });
    expect(await page.locator('.tool .tool-output').textContent()).toContain('row-10\n');
    expect(await preview.isVisible()).toBe(false);
    expect(watched.errors).toEqual([]);
  });

  it('opens in the folder web was started in, lists sessions with dates and ids, and a folder switch clears the pane', async () => {
    const { sandbox } = await cli.setup([
      { text: 'answer-in-other-folder' },
      { text: 'answer-in-home-folder' },
    ]);
    const other = join(sandbox.root, 'other-project');
    await mkdir(other);
    // A session in another folder first: the recorded folders start with it.
    expect((await sandbox.run(['-w', other, '--print', '-p', 'in other'])).code).toBe(0);
    expect((await sandbox.run(['--print', '-p', 'in home'])).code).toBe(0);

    const web = await startWeb();
    const watched = await openPage(web);
    const { page } = watched;
    const sidebar = page.getByRole('navigation', { name: 'sessions' });
    expect(await sidebar.locator('select').inputValue()).toBe(sandbox.workDir);
    await page.getByText('answer-in-home-folder').waitFor();

    // The session list: title, when, and the short id.
    const meta = sidebar.locator('.sessions li.current .session-meta');
    const currentId = new URL(page.url()).searchParams.get('session') ?? '';
    expect(currentId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await meta.textContent()).toMatch(
      new RegExp(`^today \\d{1,2}:\\d{2}.* · ${currentId.slice(0, 8)}$`),
    );

    // Another folder: its session in the pane, nothing left of the first folder's.
    await sidebar.locator('select').selectOption(other);
    await page.getByText('answer-in-other-folder').waitFor();
    expect(await page.getByText('answer-in-home-folder').count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('session')).not.toBe(currentId);
    await page.locator('.status-bar .conn.open').waitFor();
  });

  it('keeps an approval of a long command answerable at phone width after a resize', async () => {
    const word = 'a-very-long-argument-without-spaces-'.repeat(8);
    const command = `echo ${word}\necho two\necho three`;
    await cli.setup([{ toolCalls: [{ id: 'a1', name: 'Shell', args: { command } }] }, { text: 'Ran it.' }]);
    const web = await startWeb();
    const watched = await openPage(web, { width: 1400, height: 900 });
    const { page } = watched;
    await send(watched, 'run it');
    const panel = page.locator('.panel.approval');
    await panel.waitFor();
    await page.setViewportSize({ width: 375, height: 740 });
    await page.locator('header .menu').waitFor({ state: 'visible' });
    await watched.screenshot('web-phone-approval', { docs: 'web-page-phone.png' });
    // Nothing wider than the screen.
    const wide = await page.evaluate(`Array.from(document.querySelectorAll('body *'))
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
      .map((el) => el.tagName + '.' + el.className)`);
    expect(wide).toEqual([]);
    // The choices are on the screen, and the conversation keeps some room.
    const approve = panel.getByRole('button', { name: /approve once/i });
    const box = await approve.boundingBox();
    expect(box).not.toBeNull();
    expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(740);
    const main = await page.locator('main.conversation').boundingBox();
    expect(main?.height ?? 0).toBeGreaterThan(80);
    // The panel laid out anew for the phone counts a click only once it has been on screen a moment.
    await page.locator('.panel.approval[data-armed="true"]').waitFor();
    await approve.click();
    await page.getByText('Ran it.').waitFor();
  });
});
