import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBrowser, type WatchedPage } from '../support/browser.js';
import { CLI } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { startTuiInTmux } from '../support/tmux-terminal.js';
import { startWebFor, type WebServerProcess } from '../support/web-server-client.js';

/** A session made with a chosen id: a full UUID (a short one must name an existing session). */
const HELD = '4e1dbe00-0000-4000-8000-00000000000f';

/**
 * The page of `kimi-ts web` in Debian's Chromium, against the built CLI and the scripted model: the
 * cost from the config's prices (the same figure the terminal UI shows), the session buttons (fork at
 * a turn, export, delete with a confirmation; a second tab told its session is gone), and sessions
 * that cannot be opened (unknown, `..`, locked, corrupt, the server gone): a reason, and no endless
 * reconnecting on a permanent error.
 */

const cli = useScriptedCli();
const browser = useBrowser();

const HOSTILE_ALIAS = '<img src=x onerror=alert(1)>';

async function openPage(
  web: WebServerProcess,
  options: { session?: string; width?: number; waitOpen?: boolean } = {},
): Promise<WatchedPage> {
  const watched = await browser.newPage(options.width ? { width: options.width, height: 740 } : {});
  cli.defer(() => watched.context.close());
  const query = options.session === undefined ? '' : `?session=${options.session}`;
  await watched.page.goto(`${web.base}${query}#token=${web.token}`);
  if (options.waitOpen !== false)
    await watched.page.locator('.status-bar .conn.open').waitFor({ timeout: 20_000 });
  return watched;
}

async function send(watched: WatchedPage, text: string): Promise<void> {
  // Idle and ready: the last prompt was answered (Send is enabled again).
  await watched.page
    .locator('.composer button[type=submit]:enabled, form button[type=submit]:enabled')
    .first()
    .waitFor();
  const box = watched.page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
}

/** The session folder of `id` under the sandbox's home. */
async function sessionDir(home: string, id: string): Promise<string> {
  for (const entry of await readdir(home, { recursive: true, withFileTypes: true }))
    if (entry.isDirectory() && entry.name === id) return join(entry.parentPath, entry.name);
  throw new Error(`no folder for session ${id}`);
}

/** Counts the page's requests for the session stream (WebSocket upgrades and probes). */
function countStreamRequests(watched: WatchedPage): () => number {
  let count = 0;
  watched.page.on('request', (request) => {
    if (/\/api\/sessions\/[^/]+\/stream$/.test(new URL(request.url()).pathname)) count++;
  });
  return () => count;
}

describe('kimi-ts web: cost, session buttons, sessions that cannot open', { timeout: 90_000 }, () => {
  it("shows the cost from the model's price, the same the terminal UI shows; a hostile model name stays text", async () => {
    await cli.setup(
      [
        { text: 'A priced answer.', usage: { prompt_tokens: 12_000, completion_tokens: 3_000 } },
        { text: 'A second one.', usage: { prompt_tokens: 20_000, completion_tokens: 500 } },
      ],
      {
        extraToml: [
          'price = { input = 2.5, output = 10, cache_read = 0.5 }',
          '',
          `[models."${HOSTILE_ALIAS}"]`,
          'provider = "local"',
          'model = "hostile-model"',
          'max_context_size = 1000',
          'price = { input = 1, output = 1 }',
        ].join('\n'),
      },
    );
    const web = await startWebFor(cli);
    const config = (await (await web.api('/api/config')).json()) as {
      models: { name: string; price: unknown }[];
    };
    expect(config.models.find((m) => m.name === 'e2e')?.price).toEqual({
      input: 2.5,
      output: 10,
      cache_read: 0.5,
    });
    expect(JSON.stringify(config)).not.toContain('sk-e2e-test-key');
    expect(JSON.stringify(config)).not.toContain(cli.server.baseUrl);

    const watched = await openPage(web);
    const { page } = watched;
    await send(watched, 'what does it cost?');
    await page.getByText('A priced answer.').waitFor();
    await page.locator('.working').waitFor({ state: 'detached' });
    await send(watched, 'and again');
    await page.getByText('A second one.').waitFor();
    await page.locator('.working').waitFor({ state: 'detached' });
    // (12k + 20k) × $2.5/M + (3k + 0.5k) × $10/M = $0.08 + $0.035.
    await page.locator('[data-testid=cost]', { hasText: 'cost $0.1150' }).waitFor();
    const pageCost = (await page.locator('[data-testid=cost]').textContent())?.trim();

    // The hostile alias is an option's text; nothing ran, no element was made of it.
    const options = await page.locator('label.model option').allTextContents();
    expect(options).toContain(HOSTILE_ALIAS);
    expect(await page.locator('img').count()).toBe(0);
    expect(watched.dialogs).toEqual([]);
    expect(watched.errors).toEqual([]);

    const sessions = (await (await web.api('/api/sessions')).json()) as { sessions: { id: string }[] };
    const id = sessions.sessions[0]!.id;
    await web.stop();
    // The terminal UI on the same session (resumed: it replays the same usage at the same prices).
    const tui = startTuiInTmux(CLI, cli.sandbox, { args: ['-S', id] });
    cli.defer(() => tui.close());
    const screen = await tui.waitFor('cost $');
    expect(screen).toContain(pageCost);
  });

  it('forks at a turn from its menu (keyboard), exports Markdown with secrets redacted, deletes after a confirmation', async () => {
    await cli.setup([{ text: 'First answer.' }, { text: 'Second answer, quoting sk-e2e-test-key back.' }]);
    const web = await startWebFor(cli);
    const watched = await openPage(web);
    const { page } = watched;
    await expect(page.locator('[data-testid=cost]').textContent()).resolves.toBe('cost n/a');
    await send(watched, 'first question');
    await page.getByText('First answer.').waitFor();
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    await send(watched, 'my key is sk-e2e-test-key');
    await page.getByText('Second answer').waitFor();
    await page.locator('.working').waitFor({ state: 'detached' });
    const original = new URL(page.url()).searchParams.get('session');

    // Export: a download of the conversation, the config's API key redacted.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`kimi-ts-${original}.md`);
    const markdown = await file.createReadStream().then(
      (stream) =>
        new Promise<string>((resolve) => {
          let text = '';
          stream.setEncoding('utf8').on('data', (d: string) => {
            text += d;
          });
          stream.on('end', () => resolve(text));
        }),
    );
    expect(markdown).toContain('First answer.');
    expect(markdown).toContain('Second answer');
    expect(markdown).not.toContain('sk-e2e-test-key');

    // Fork at turn 1, from the keyboard: focus the turn's menu, open it, press its button.
    const menu = page.getByLabel('Turn 1 actions');
    await menu.focus();
    await page.keyboard.press('Enter');
    const fork = page.getByRole('button', { name: /Fork from here/ }).first();
    await fork.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => {
      const now = url.searchParams.get('session');
      return now !== null && now !== original;
    });
    await page.locator('.status-bar .conn.open').waitFor({ timeout: 20_000 });
    await page.getByText('First answer.').waitFor();
    expect(await page.locator('.turn').count()).toBe(1);
    expect(await page.getByText('Second answer').count()).toBe(0);
    await page.locator('header h1', { hasText: /^Fork: / }).waitFor();
    const forkId = new URL(page.url()).searchParams.get('session')!;

    // A second tab on the fork; the first deletes it, after saying no once (Esc) and yes once.
    const other = await openPage(web, { session: forkId });
    const otherStreams = countStreamRequests(other);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.waitFor();
    await page.waitForFunction("document.activeElement?.textContent === 'Keep it'");
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect((await web.api(`/api/sessions/${forkId}`)).status).toBe(200);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('button', { name: 'Delete the session' }).click();
    // The deleting tab moves to the session that is left; the other tab says its session is gone.
    await page.waitForURL((url) => url.searchParams.get('session') === original);
    const gone = other.page.locator('.connection-failed');
    await gone.waitFor();
    expect(await gone.textContent()).toContain('The session was deleted.');
    await other.page.locator('.status-bar .conn.failed').waitFor();
    expect((await web.api(`/api/sessions/${forkId}`)).status).toBe(404);
    // It does not try again on its own: no request for the stream within a few backoff periods.
    const before = otherStreams();
    await expect(other.page.waitForRequest(/\/stream$/, { timeout: 1500 })).rejects.toThrow();
    expect(otherStreams()).toBe(before);
    await other.screenshot('web-session-deleted');
    expect(watched.errors).toEqual([]);
  });

  it('unknown and `..` ids, a locked session and corrupt files: the reason, as text, and no retry loop', async () => {
    await cli.setup([{ text: 'from the terminal' }, { text: 'made here' }]);
    const web = await startWebFor(cli);

    const unknown = await openPage(web, { session: 'no-such-session', waitOpen: false });
    await unknown.page.locator('.connection-failed').waitFor({ timeout: 20_000 });
    expect(await unknown.page.locator('.connection-failed .reason').textContent()).toBe(
      'There is no session with this id.',
    );
    const unknownStreams = countStreamRequests(unknown);
    await expect(unknown.page.waitForRequest(/\/stream$/, { timeout: 1500 })).rejects.toThrow();
    expect(unknownStreams()).toBe(0);

    // `..` in the id: refused before it touches the disk, shown as a reason like any unknown id.
    const traversal = await openPage(web, { session: '..%2F..%2Fetc', waitOpen: false });
    await traversal.page.locator('.connection-failed').waitFor({ timeout: 20_000 });
    expect(await traversal.page.locator('.connection-failed .reason').textContent()).toBe(
      'There is no session with this id.',
    );
    expect((await web.api('/api/sessions/..%2F..%2Fetc/stream')).status).toBe(404);

    // Locked: a terminal (wire mode) holds the session.
    const terminal = cli.sandbox.spawn(['--wire', '-S', HELD]);
    cli.defer(() => {
      terminal.kill('SIGTERM');
    });
    terminal.stdin!.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: '1', method: 'prompt', params: { user_input: 'hold it' } })}\n`,
    );
    await new Promise<void>((resolve) => {
      let out = '';
      terminal.stdout!.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        if (out.includes('"id":"1"')) resolve();
      });
    });
    const locked = await openPage(web, { session: HELD, waitOpen: false });
    await locked.page.locator('.connection-failed').waitFor({ timeout: 20_000 });
    expect(await locked.page.locator('.connection-failed .reason').textContent()).toMatch(
      /another kimi-ts process|open in another/i,
    );
    await locked.screenshot('web-session-locked');
    // Once the terminal lets go, "Try again" opens it.
    terminal.stdin!.end();
    await new Promise((resolve) => terminal.once('close', resolve));
    await locked.page.getByRole('button', { name: 'Try again' }).click();
    await locked.page.locator('.status-bar .conn.open').waitFor({ timeout: 20_000 });
    await locked.page.getByText('from the terminal').waitFor();

    // Corrupt files: a session made by another run, then broken on disk.
    const id = 'c0aa0000-0000-4000-8000-000000000c0e';
    const made = await cli.sandbox.run(['--print', '-S', id, '-p', 'make a session']);
    expect(made.stderr).toBe('');
    expect(made.stdout).toContain('made here');
    const dir = await sessionDir(cli.sandbox.home, id);
    // Malformed lines are skipped by design (a torn write); a state file that is no file cannot be read.
    await rm(join(dir, 'state.json'), { force: true });
    await mkdir(join(dir, 'state.json'));
    const corrupt = await openPage(web, { session: id, waitOpen: false });
    await corrupt.page.locator('.connection-failed').waitFor({ timeout: 20_000 });
    const reason = (await corrupt.page.locator('.connection-failed .reason').textContent()) ?? '';
    expect(reason).toMatch(/^The session could not be opened: EISDIR/);
    expect(reason).not.toContain(cli.sandbox.home);
    expect(corrupt.errors.filter((e) => e.startsWith('pageerror'))).toEqual([]);
    // It is still listed (by its id), so it can be seen and deleted; the other sessions are listed too.
    const listed = (await (await web.api('/api/sessions')).json()) as { sessions: { id: string }[] };
    expect(listed.sessions.map((s) => s.id).sort()).toEqual([id, HELD].sort());
    expect(new URL(corrupt.page.url()).searchParams.get('session')).toBe(id);
  });

  it('the server gone: reconnecting with a visible countdown, not a failure; back when it returns', async () => {
    await cli.setup([{ text: 'still here after the restart' }]);
    let web = await startWebFor(cli);
    const watched = await openPage(web, { width: 375 });
    const { page } = watched;
    await send(watched, 'remember me');
    await page.getByText('still here after the restart').waitFor();
    await page.locator('.working').waitFor({ state: 'detached' });
    const port = web.port;
    await web.stop();
    // While it shuts down the server may answer 503 (passing too); once gone, nothing answers.
    await page
      .locator('.connection-retry', {
        hasText: /The server cannot be reached\. Reconnecting \(attempt \d+\) in \d+\.\d s/,
      })
      .waitFor({ timeout: 20_000 });
    await page.locator('.status-bar .conn.reconnecting').waitFor();
    // A later attempt, with a longer wait (backoff).
    await page.locator('.connection-retry', { hasText: /attempt [3-9]/ }).waitFor({ timeout: 20_000 });
    expect(await page.locator('.connection-failed').count()).toBe(0);
    await watched.screenshot('web-server-gone');
    web = await startWebFor(cli, ['--port', String(port)]);
    await page.locator('.status-bar .conn.open').waitFor({ timeout: 30_000 });
    expect(await page.locator('.connection-retry').count()).toBe(0);
    expect(await page.locator('.md', { hasText: 'still here after the restart' }).count()).toBe(1);
  });
});
