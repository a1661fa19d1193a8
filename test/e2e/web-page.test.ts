import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deferred } from '../../src/util/deferred.js';
import { launchBrowser, type TestBrowser, type WatchedPage } from '../support/browser.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { startWebFor, type WebServerProcess } from '../support/web-server-client.js';

/**
 * The page of `kimi-ts web` in Debian's Chromium, against the built CLI and the scripted model:
 * a turn with an approved tool call, a rejection with a reason, cancel, a reconnect mid-turn, and a
 * hostile answer whose HTML must stay text.
 */

const cli = useScriptedCli();
let browser: TestBrowser;
let web: WebServerProcess | undefined;

const startWeb = (extra: string[] = []) => startWebFor(cli, extra);

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Keeps every WebSocket the page opens, so a test can drop them as a network failure would. */
async function trackSockets(watched: WatchedPage): Promise<void> {
  await watched.page.addInitScript({
    content: `{
      const Native = window.WebSocket;
      const sockets = (window.__sockets = []);
      window.WebSocket = class extends Native {
        constructor(url, protocols) {
          super(url, protocols);
          sockets.push(this);
        }
      };
    }`,
  });
}

async function openPage(options: { width?: number; height?: number } = {}): Promise<WatchedPage> {
  if (!web) throw new Error('start the server first');
  const watched = await browser.newPage(options);
  cli.defer(() => watched.context.close());
  await trackSockets(watched);
  await watched.page.goto(`${web.base}#token=${web.token}`);
  await watched.page.locator('.status-bar .conn.open').waitFor({ timeout: 20_000 });
  return watched;
}

async function send(watched: WatchedPage, text: string): Promise<void> {
  const box = watched.page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
}

// A real browser, a CLI and a shell command per case: generous on a loaded machine.
describe('kimi-ts web: the page', { timeout: 60_000 }, () => {
  it('runs a turn with a tool call, approved from the keyboard, and shows the answer', async () => {
    await cli.setup([
      {
        think: 'The user wants the echo run; the Shell tool can do that.',
        text: 'Let me run it with the **Shell** tool:\n\n```bash\necho hello-from-tool\n```',
        toolCalls: [{ id: 't1', name: 'Shell', args: { command: 'echo hello-from-tool' } }],
      },
      { text: 'The command printed **hello-from-tool**.' },
    ]);
    web = await startWeb();
    const watched = await openPage();
    const { page } = watched;
    expect(page.url()).not.toContain(web.token);

    await send(watched, 'run the echo');
    const panel = page.locator('.panel.approval[data-armed="true"]');
    await panel.waitFor();
    expect(await page.evaluate("document.activeElement?.closest('.approval') !== null")).toBe(true);
    await watched.screenshot('web-approval', { docs: 'web.png' });
    await page.keyboard.press('1');

    await page.getByText('The command printed').waitFor();
    expect(await page.locator('.md strong', { hasText: 'hello-from-tool' }).count()).toBe(1);
    expect(await page.locator('.tool .tool-output', { hasText: 'hello-from-tool' }).count()).toBe(1);
    expect(await page.locator('.panel.approval').count()).toBe(0);
    await watched.screenshot('web-turn');
    expect(watched.errors).toEqual([]);
  });

  it('rejects with a reason, which reaches the model', async () => {
    await cli.setup([
      { toolCalls: [{ id: 'r1', name: 'Shell', args: { command: 'rm -rf build' } }] },
      { text: 'Understood, I will not delete it.' },
    ]);
    web = await startWeb();
    const watched = await openPage();
    const { page } = watched;
    await send(watched, 'clean up');
    await page.locator('.panel.approval[data-armed="true"]').waitFor();
    await page.getByRole('button', { name: /Reject, and say/ }).click();
    const reason = page.getByRole('textbox', { name: /What should it do instead/ });
    await reason.fill('keep the build folder');
    await reason.press('Enter');
    await page.getByText('Understood, I will not delete it.').waitFor();
    const lastRequest = JSON.stringify(cli.server.requests.at(-1)?.body ?? '');
    expect(lastRequest).toContain('keep the build folder');
  });

  it('approves commands starting with a prefix for the session, saved as a project rule', async () => {
    await cli.setup([
      { toolCalls: [{ id: 'p1', name: 'Shell', args: { command: 'echo first' } }] },
      { toolCalls: [{ id: 'p2', name: 'Shell', args: { command: 'echo second' } }] },
      { text: 'Both ran.' },
    ]);
    web = await startWeb();
    const watched = await openPage();
    const { page } = watched;
    await send(watched, 'echo twice');
    await page.locator('.panel.approval[data-armed="true"]').waitFor();
    await page.getByRole('button', { name: /Approve for this session/ }).click();
    await page.getByRole('combobox', { name: 'save as a permission rule' }).selectOption('project');
    await page.getByRole('button', { name: /Commands starting with/ }).click();
    // The second `echo` is covered by the prefix: it runs without a second panel.
    await page.getByText('Both ran.').waitFor();
    const rules = await readFile(join(cli.sandbox.workDir, '.kimi-ts', 'permissions.toml'), 'utf8');
    expect(rules).toContain('Shell(echo *)');
    expect(watched.errors).toEqual([]);
  });

  it('cancels a running turn with Esc', async () => {
    const never = deferred();
    await cli.setup([{ text: 'thinking hard…', holdUntil: never.promise }]);
    web = await startWeb();
    const watched = await openPage();
    const { page } = watched;
    await send(watched, 'take your time');
    await page.getByText('thinking hard…').waitFor();
    await page.getByRole('textbox', { name: 'Steer the running turn' }).press('Escape');
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    await page.locator('.working').waitFor({ state: 'detached' });
    never.resolve();
  });

  it('reconnects mid-turn and shows everything once', async () => {
    const release = deferred();
    await cli.setup([{ text: 'first half, ', holdUntil: release.promise }, { text: 'unused' }]);
    web = await startWeb();
    const watched = await openPage();
    const { page } = watched;
    await send(watched, 'a long answer please');
    await page.getByText('first half,').waitFor();
    await page.evaluate('for (const socket of window.__sockets) socket.close()');
    await page.locator('.status-bar .conn:not(.open)').waitFor();
    release.resolve();
    await page.locator('.status-bar .conn.open').waitFor({ timeout: 20_000 });
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    expect(await page.locator('.user', { hasText: 'a long answer please' }).count()).toBe(1);
    expect(await page.locator('.md', { hasText: 'first half,' }).count()).toBe(1);
    expect(await page.locator('.turn').count()).toBe(1);
  });

  it('reconnects to a restarted server and rebuilds the session from its wire.jsonl', async () => {
    await cli.setup([{ text: 'remembered across the restart' }]);
    web = await startWeb();
    const watched = await openPage();
    const { page } = watched;
    await send(watched, 'say something to remember');
    await page.getByText('remembered across the restart').waitFor();
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    const port = web.port;
    await web.stop();
    await page.locator('.status-bar .conn:not(.open)').waitFor();
    // Same port and home: the token file is reused, so the tab's kept token still works.
    web = await startWeb(['--port', String(port)]);
    await page.locator('.status-bar .conn.open').waitFor({ timeout: 30_000 });
    await page.getByText('remembered across the restart').waitFor();
    expect(await page.locator('.turn').count()).toBe(1);
    expect(await page.locator('.md', { hasText: 'remembered across the restart' }).count()).toBe(1);
  });

  it('after a reconnect, a pending approval is back and can be answered; nothing twice', async () => {
    await cli.setup([
      {
        text: 'before the call, ',
        toolCalls: [{ id: 'p1', name: 'Shell', args: { command: 'echo after-reconnect' } }],
      },
      { text: 'all done after the reconnect.' },
    ]);
    web = await startWeb();
    const watched = await openPage();
    const { page } = watched;
    await send(watched, 'run it across a reconnect');
    await page.locator('.panel.approval[data-armed="true"]').waitFor();
    await page.evaluate('for (const socket of window.__sockets) socket.close()');
    await page.locator('.status-bar .conn:not(.open)').waitFor();
    await page.locator('.status-bar .conn.open').waitFor({ timeout: 20_000 });
    await page.locator('.panel.approval[data-armed="true"]').waitFor();
    await page.getByRole('button', { name: 'Approve once' }).click();
    await page.getByText('all done after the reconnect.').waitFor();
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    expect(await page.locator('.turn').count()).toBe(1);
    expect(await page.locator('.md', { hasText: 'before the call,' }).count()).toBe(1);
    expect(await page.locator('.tool .tool-output', { hasText: 'after-reconnect' }).count()).toBe(1);
    expect(await page.locator('.panel.approval').count()).toBe(0);
  });

  it('steers a running turn', async () => {
    const release = deferred();
    await cli.setup([
      { text: 'working on it… ', holdUntil: release.promise },
      { text: 'Now in French, as asked.' },
    ]);
    web = await startWeb();
    const watched = await openPage();
    const { page } = watched;
    await send(watched, 'write a greeting');
    await page.getByText('working on it…').waitFor();
    const steer = page.getByRole('textbox', { name: 'Steer the running turn' });
    await steer.fill('in French please');
    await steer.press('Enter');
    // The steer joins the context when the running step ends: once the server took it, release it.
    await page.locator('.steer.queued[data-accepted="true"]', { hasText: 'in French please' }).waitFor();
    release.resolve();
    await page.locator('.steer:not(.queued)', { hasText: 'in French please' }).waitFor();
    await page.locator('.steer.queued').waitFor({ state: 'detached' });
    await page.getByText('Now in French, as asked.').waitFor();
    expect(JSON.stringify(cli.server.requests.at(-1)?.body ?? '')).toContain('in French please');
  });

  it('lists, creates, renames and switches sessions', async () => {
    await cli.setup([{ text: 'answer in the first session' }]);
    web = await startWeb();
    const watched = await openPage();
    const { page } = watched;
    await send(watched, 'first session prompt');
    await page.getByText('answer in the first session').waitFor();
    const sessions = page.getByRole('navigation', { name: 'sessions' });
    await sessions.getByRole('button', { name: 'first session prompt', exact: true }).waitFor();

    await sessions.getByRole('button', { name: 'rename first session prompt' }).click();
    const title = sessions.getByRole('textbox', { name: 'session title' });
    await title.fill('Renamed <b>session</b>');
    await title.press('Enter');
    await sessions.getByRole('button', { name: 'Renamed <b>session</b>', exact: true }).waitFor();

    await sessions.getByRole('button', { name: '+ New session' }).click();
    await page.locator('.status-bar .conn.open').waitFor();
    await page.locator('.turn').waitFor({ state: 'detached' });
    await sessions.getByRole('button', { name: 'Renamed <b>session</b>', exact: true }).click();
    await page.getByText('answer in the first session').waitFor();
    expect(await page.locator('.user', { hasText: 'first session prompt' }).count()).toBe(1);
  });

  it('keeps a hostile answer inert: no dialog, no element, the text visible', async () => {
    const hostile = [
      'Here: <script>window.__pwned = 1; alert("script")</script>',
      '<img src=x onerror="window.__pwned = 2; alert(\'img\')">',
      '[click me](javascript:window.__pwned=3) and <a href="javascript:alert(4)">raw link</a>',
      '<svg onload="alert(5)"></svg> <iframe src="javascript:alert(6)"></iframe>',
    ].join('\n\n');
    const hostileCommand = `echo '<img src=x onerror="alert(7)">' '<script>alert(8)</script>'`;
    await cli.setup([
      { text: hostile, toolCalls: [{ id: 'h1', name: 'Shell', args: { command: hostileCommand } }] },
      { text: 'Done echoing.' },
    ]);
    web = await startWeb();
    const watched = await openPage();
    const { page } = watched;
    await send(watched, 'say something nasty');
    await page.getByText('raw link').waitFor();
    await page.getByText('click me').click();
    // The command, with its markup, in the approval panel: text too.
    const panel = page.locator('.panel.approval[data-armed="true"]');
    await panel.waitFor();
    expect(await panel.getByText('<script>alert(8)</script>').count()).toBeGreaterThan(0);
    await panel.getByRole('button', { name: 'Approve once' }).click();
    await page.getByText('Done echoing.').waitFor();
    expect(
      await page
        .locator('.tool-output', { hasText: '<img src=x onerror="alert(7)"> <script>alert(8)</script>' })
        .count(),
    ).toBe(1);
    const body = page.locator('#app');
    for (const tag of ['script', 'img', 'svg', 'iframe']) expect(await body.locator(tag).count()).toBe(0);
    expect(await body.locator('a[href^="javascript" i]').count()).toBe(0);
    expect(await body.getByText('<img src=x onerror=').count()).toBeGreaterThan(0);
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    expect(watched.dialogs).toEqual([]);
    expect(watched.errors).toEqual([]);
  });

  it('answers a question with several options picked and a free-text one', async () => {
    const questions = [
      {
        question: 'Which checks should run?',
        header: 'Checks',
        options: [
          { label: 'lint', description: 'biome' },
          { label: 'types', description: 'tsc' },
        ],
        multi_select: true,
      },
      {
        question: 'Which branch?',
        header: 'Branch',
        options: [
          { label: 'main', description: '' },
          { label: 'dev', description: '' },
        ],
      },
    ];
    await cli.setup([
      { toolCalls: [{ id: 'q1', name: 'AskUserQuestion', args: { questions } }] },
      { text: 'Thanks for the answers.' },
    ]);
    web = await startWeb();
    const watched = await openPage();
    const { page } = watched;
    await send(watched, 'ask me');
    const panel = page.locator('.panel.question');
    await panel.waitFor();
    await panel.getByLabel('lint').check();
    await panel.getByLabel('types').check();
    await panel.getByRole('textbox', { name: 'Which branch?: other answer' }).fill('release-7');
    await page.locator('.panel.question[data-armed="true"]').waitFor();
    await panel.getByRole('button', { name: 'Answer' }).click();
    await page.getByText('Thanks for the answers.').waitFor();
    const toModel = JSON.stringify(cli.server.requests.at(-1)?.body ?? '');
    expect(toModel).toContain('lint, types');
    expect(toModel).toContain('release-7');
  });

  it('switches the model from the header', async () => {
    await cli.setup([{ text: 'answered by the other model' }], {
      extraToml: [
        '[models.other]',
        'provider = "local"',
        'model = "other-model"',
        'max_context_size = 50000',
      ].join('\n'),
    });
    web = await startWeb();
    const watched = await openPage();
    const { page } = watched;
    await page.getByRole('combobox', { name: 'Model' }).selectOption('other');
    await page.getByText('Using the model other').waitFor();
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    await send(watched, 'who answers?');
    await page.getByText('answered by the other model').waitFor();
    expect((cli.server.requests.at(-1)?.body as { model?: string } | undefined)?.model).toBe('other-model');
  });

  it('switches plan mode on from the page', async () => {
    await cli.setup([]);
    web = await startWeb();
    const watched = await openPage();
    const { page } = watched;
    await page.getByLabel('Plan mode').check();
    await page.locator('.status-bar .badge.plan').waitFor();
  });

  it('works at phone width', async () => {
    await cli.setup([{ text: 'Short answer for a small screen.' }]);
    web = await startWeb();
    const watched = await openPage({ width: 375, height: 740 });
    const { page } = watched;
    await send(watched, 'hello from a phone');
    await page.getByText('Short answer for a small screen.').waitFor();
    const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await watched.screenshot('web-phone');
  });
});
