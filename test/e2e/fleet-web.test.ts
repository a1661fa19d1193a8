import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deferred } from '../../src/util/deferred.js';
import { useBrowser, type WatchedPage } from '../support/browser.js';
import { startRedis, startWorker, submit } from '../support/fleet-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import {
  RefusedUpgrade,
  startWebFor,
  type WebServerProcess,
  WebWireClient,
} from '../support/web-server-client.js';

/**
 * `kimi-ts web --queue URL` in Debian's Chromium, against a real redis-server, a worker process of the
 * built CLI and the scripted model: the page on this web node follows turns that run on the worker
 * (the session's Redis Stream, live), lists the fleet's sessions with their state and worker, shows a
 * parked approval as its approval panel and answers it (the job resumes), and says when Redis is gone.
 */

const cli = useScriptedCli();
const browser = useBrowser();

async function openPage(web: WebServerProcess, session?: string): Promise<WatchedPage> {
  const watched = await browser.newPage();
  cli.defer(() => watched.context.close());
  const query = session === undefined ? '' : `?session=${encodeURIComponent(session)}`;
  await watched.page.goto(`${web.base}${query}#token=${web.token}`);
  return watched;
}

const HOSTILE = '<img src=x onerror="document.title=\'pwned\'">';

describe('kimi-ts web --queue', { timeout: 120_000 }, () => {
  it('shows, live, the events a worker process writes, and lists the session with its state and worker', async () => {
    const { promise: held, resolve: release } = deferred();
    cli.defer(() => release());
    const { sandbox } = await cli.setup([{ text: `Answer from the worker ${HOSTILE}`, holdUntil: held }]);
    const redis = await startRedis(cli);
    await startWorker(cli, sandbox, redis.url, ['--label', 'worker-y']);
    const web = await startWebFor(cli, ['--queue', redis.url]);
    const session = randomUUID();
    // The page follows the session before its turn exists: what comes next arrives live.
    const watched = await openPage(web, session);
    const { page } = watched;
    await page.locator('.status-bar .conn.open').waitFor({ timeout: 30_000 });
    const turn = submit(sandbox, redis.url, 'hello fleet', ['--session', session, '--wait']);
    // The turn cannot end before `release` (the model's answer is held back), yet its start is on
    // the page: the page follows the worker live.
    await page.getByText('hello fleet').first().waitFor({ timeout: 30_000 });
    release();
    await page.getByText('Answer from the worker').first().waitFor({ timeout: 30_000 });
    expect((await turn).code).toBe(0);
    // The model's text is text: no element made of it, nothing run.
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(await page.title()).not.toBe('pwned');
    expect(await page.getByText(HOSTILE).count()).toBeGreaterThan(0);
    // A fresh page lists the fleet's session: done, and the worker that ran it.
    const list = await openPage(web);
    const entry = list.page.locator('.fleet-state').first();
    await entry.waitFor({ timeout: 30_000 });
    expect(await entry.textContent()).toMatch(/^done on worker-y@\S+ · \d+ tokens · cost n\/a · $/);
    const listed = (await (await web.api('/api/sessions')).json()) as { sessions: { id: string }[] };
    expect(listed.sessions.map((s) => s.id)).toEqual([session]);
    expect(watched.errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  });

  it("lists each session's cost at the price its worker's config gives the model, n/a without one; no key in Redis", async () => {
    const { server, sandbox } = await cli.setup(
      [
        { text: 'A priced answer.', usage: { prompt_tokens: 100_000, completion_tokens: 10_000 } },
        { text: 'An unpriced answer.', usage: { prompt_tokens: 50_000, completion_tokens: 1_000 } },
      ],
      // The web node's config has no price: the figure can only come from the worker's.
      {
        extraToml: [
          '[models.free]',
          'provider = "local"',
          'model = "free-model"',
          'max_context_size = 100000',
        ].join('\n'),
      },
    );
    const workerSandbox = await sandbox.pointedAt({
      baseUrl: server.baseUrl,
      extraToml: [
        'price = { input = 2, output = 10 }',
        '',
        '[models.free]',
        'provider = "local"',
        'model = "free-model"',
        'max_context_size = 100000',
      ].join('\n'),
    });
    const redis = await startRedis(cli);
    await startWorker(cli, workerSandbox, redis.url, ['--label', 'priced']);
    const web = await startWebFor(cli, ['--queue', redis.url]);
    const priced = await submit(sandbox, redis.url, 'a priced task', ['--wait']);
    expect(priced.code).toBe(0);
    const unpriced = await submit(sandbox, redis.url, 'an unpriced task', ['-m', 'free', '--wait']);
    expect(unpriced.code).toBe(0);
    const { page } = await openPage(web);
    // 100,000 in at $2 and 10,000 out at $10 per million tokens.
    const pricedEntry = page.locator('li', { hasText: 'a priced task' }).locator('.fleet-state');
    await pricedEntry.waitFor({ timeout: 30_000 });
    expect(await pricedEntry.textContent()).toMatch(/^done on priced@\S+ · \d+ tokens · cost \$0\.3000 · $/);
    const unpricedEntry = page.locator('li', { hasText: 'an unpriced task' }).locator('.fleet-state');
    expect(await unpricedEntry.textContent()).toMatch(/ · cost n\/a · $/);
    const listed = (await (await web.api('/api/sessions')).json()) as {
      sessions: { title: string; fleet: { cost: number | null } }[];
    };
    const costOf = (title: string) => listed.sessions.find((s) => s.title === title)?.fleet.cost;
    expect(costOf('a priced task')).toBeCloseTo(0.3, 10);
    expect(costOf('an unpriced task')).toBeNull();
    // Redis holds dollars, never the worker's key.
    expect(await redis.dump()).not.toContain('sk-e2e-test-key');
  });

  it('a prompt from the page queues a turn; its parked approval answered on the page resumes the job', async () => {
    const writeNote = {
      toolCalls: [{ id: 'call-shell-1', name: 'Shell', args: { command: 'echo approved > note.txt' } }],
    };
    const { server, sandbox } = await cli.setup([writeNote, writeNote, { text: 'Wrote the note.' }]);
    const redis = await startRedis(cli);
    await startWorker(cli, sandbox, redis.url, ['--label', 'worker-y']);
    const web = await startWebFor(cli, ['--queue', redis.url]);
    const session = randomUUID();
    const { page } = await openPage(web, session);
    await page.locator('.status-bar .conn.open').waitFor({ timeout: 30_000 });
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('write the note');
    await box.press('Enter');
    // The worker parks the turn (it holds no worker) and the page shows the approval.
    const panel = page.locator('.panel.approval[data-armed="true"]');
    await panel.waitFor({ timeout: 30_000 });
    expect(await panel.textContent()).toContain('echo approved > note.txt');
    const status = JSON.parse(
      (await sandbox.run(['fleet', 'status', '--queue', redis.url, '--json'])).stdout,
    );
    expect(status.counts).toMatchObject({ running: 0, delayed: 1 });
    const listed = (await (await web.api('/api/sessions')).json()) as {
      sessions: { id: string; title: string; fleet: { state: string; worker: string } }[];
    };
    expect(listed.sessions).toEqual([
      expect.objectContaining({
        id: session,
        title: 'write the note',
        fleet: expect.objectContaining({ state: 'parked', worker: expect.stringMatching(/^worker-y@/) }),
      }),
    ]);
    await page.getByRole('button', { name: 'Approve once' }).click();
    await page.getByText('Wrote the note.').first().waitFor({ timeout: 30_000 });
    expect(await readFile(join(sandbox.workDir, 'note.txt'), 'utf8')).toBe('approved\n');
    expect(server.requests).toHaveLength(3);
    // Nothing is left waiting: the answer went through `fleet approve`'s path and was used.
    const again = await sandbox.run(['fleet', 'approve', session, '--queue', redis.url, '--approve']);
    expect(again.code).toBe(1);
  });

  it("a parked question shows as the page's question panel; a free answer is refused, a chosen option resumes the job", async () => {
    const askDb = {
      toolCalls: [
        {
          id: 'call-ask-1',
          name: 'AskUserQuestion',
          args: {
            questions: [
              { question: 'Which database?', options: [{ label: 'Postgres' }, { label: 'SQLite' }] },
            ],
          },
        },
      ],
    };
    const { server, sandbox } = await cli.setup([askDb, askDb, { text: 'Using SQLite.' }]);
    const redis = await startRedis(cli);
    await startWorker(cli, sandbox, redis.url);
    const web = await startWebFor(cli, ['--queue', redis.url]);
    const session = randomUUID();
    const { page } = await openPage(web, session);
    await page.locator('.status-bar .conn.open').waitFor({ timeout: 30_000 });
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('set up the db');
    await box.press('Enter');
    const panel = page.locator('.panel.question');
    await panel.waitFor({ timeout: 30_000 });
    const status = JSON.parse(
      (await sandbox.run(['fleet', 'status', '--queue', redis.url, '--json'])).stdout,
    );
    expect(status.counts).toMatchObject({ running: 0, delayed: 1 });
    // A free "Other" answer is no option: it answers nothing and the question is offered again.
    await panel.getByRole('textbox', { name: 'Which database?: other answer' }).fill('MySQL');
    await page.locator('.panel.question[data-armed="true"]').waitFor();
    await panel.getByRole('button', { name: 'Answer' }).click();
    await panel.waitFor({ timeout: 30_000 });
    const shown = await sandbox.run(['fleet', 'answer', session, '--queue', redis.url]);
    expect(shown.stdout).toContain('Which database?');
    await panel.getByLabel('SQLite').check();
    await page.locator('.panel.question[data-armed="true"]').waitFor();
    await panel.getByRole('button', { name: 'Answer' }).click();
    await page.getByText('Using SQLite.').first().waitFor({ timeout: 30_000 });
    expect(server.requests).toHaveLength(3);
    // The model heard the option, never the free text.
    const messages = (server.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] })
      .messages;
    const results = messages.filter((m) => m.role === 'tool').map((m) => JSON.stringify(m.content));
    expect(results).toHaveLength(1);
    expect(results[0]).toContain('SQLite');
    expect(results[0]).not.toContain('MySQL');
    const again = await sandbox.run(['fleet', 'answer', session, '--queue', redis.url]);
    expect(again.code).toBe(1);
  });

  it("the page's Cancel stops the turn on the worker (fleet cancel's path)", async () => {
    const { promise: held, resolve: release } = deferred();
    cli.defer(() => release());
    const { server, sandbox } = await cli.setup([{ text: 'streamed, then held', holdUntil: held }]);
    const redis = await startRedis(cli);
    await startWorker(cli, sandbox, redis.url);
    const web = await startWebFor(cli, ['--queue', redis.url]);
    const session = randomUUID();
    const { page } = await openPage(web, session);
    await page.locator('.status-bar .conn.open').waitFor({ timeout: 30_000 });
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('a long task');
    await box.press('Enter');
    await server.waitForRequests(1);
    const cancel = page.getByRole('button', { name: 'Cancel' });
    await cancel.waitFor({ timeout: 30_000 });
    await cancel.click();
    // The turn ends as cancelled: the page is idle again, and the stream says why it ended.
    await cancel.waitFor({ state: 'detached', timeout: 30_000 });
    const events = await sandbox.run(['fleet', 'events', session, '--queue', redis.url]);
    const end = events.stdout
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as { kind: string; error?: string })
      .find((entry) => entry.kind === 'end');
    expect(end).toMatchObject({ kind: 'end', error: 'Interrupted by user' });
    // The worker stopped the step that was running: it was not committed, nothing ran after it.
    release();
    expect(server.requests).toHaveLength(1);
  });

  it('Redis gone: the page says so, the server logs one line without the credentials', async () => {
    const { sandbox } = await cli.setup([{ text: 'before Redis left' }]);
    const redis = await startRedis(cli);
    await startWorker(cli, sandbox, redis.url);
    const session = randomUUID();
    expect((await submit(sandbox, redis.url, 'hello', ['--session', session, '--wait'])).code).toBe(0);
    // A password Redis does not ask for is sent and ignored: the URL still carries a secret.
    const secretUrl = `redis://:hunter2-secret@127.0.0.1:${redis.port}`;
    const web = await startWebFor(cli, ['--queue', secretUrl]);
    const { page } = await openPage(web, session);
    await page.getByText('before Redis left').first().waitFor({ timeout: 30_000 });
    await redis.stop();
    const notice = page.locator('.connection-retry');
    await notice.waitFor({ timeout: 30_000 });
    expect(await notice.textContent()).toContain(`Cannot reach Redis at 127.0.0.1:${redis.port}`);
    const lines = web
      .stderr()
      .split('\n')
      .filter((line) => line.includes('Cannot reach Redis'));
    expect(lines).toHaveLength(1);
    expect(web.stderr()).not.toContain('hunter2');
    expect(await page.content()).not.toContain('hunter2');
    // A node started while Redis is away says so in one line and exits non-zero.
    const late = await sandbox.run(['web', '--no-open', '--port', '0', '--queue', secretUrl]);
    expect(late.code).toBe(1);
    expect(late.stderr).toBe(
      `kimi-ts web: Cannot reach Redis at 127.0.0.1:${redis.port}: connection refused.\n`,
    );
    // Redis back (its append-only file reloaded): the page reconnects and replays the session.
    await redis.restart();
    await page.locator('.connection-retry').waitFor({ state: 'detached', timeout: 30_000 });
    await page.locator('.status-bar .conn.open').waitFor({ timeout: 30_000 });
    await page.getByText('before Redis left').first().waitFor({ timeout: 30_000 });
    expect(web.stderr()).toContain(`the fleet's Redis at 127.0.0.1:${redis.port} is back`);
  });

  it('a session id that is not a UUID names no Redis key: the page says why, the API refuses', async () => {
    await cli.setup([]);
    const redis = await startRedis(cli);
    const web = await startWebFor(cli, ['--queue', redis.url]);
    const { page } = await openPage(web, '../holder:x');
    await page.locator('.connection-failed').waitFor({ timeout: 30_000 });
    expect(await page.locator('.connection-failed .reason').textContent()).toBe(
      'A fleet session id is a full UUID.',
    );
    const probe = await web.api(`/api/sessions/${encodeURIComponent('*')}/stream`);
    expect(probe.status).toBe(404);
    // Without the token: refused as in local mode, the REST routes and the WebSocket alike.
    expect((await web.api('/api/sessions', { token: null })).status).toBe(401);
    const refused = (connecting: Promise<WebWireClient>) =>
      connecting.then(
        (client) => {
          client.ws.close();
          return null;
        },
        (error: unknown) => (error instanceof RefusedUpgrade ? error.status : error),
      );
    const session = randomUUID();
    expect(await refused(WebWireClient.connect(web, session, { token: 'wrong-token-wrong-token' }))).toBe(
      401,
    );
    expect(
      await refused(WebWireClient.connect(web, session, { headers: { Origin: 'http://evil.test' } })),
    ).toBe(403);
    expect(await refused(WebWireClient.connect(web, encodeURIComponent('holder:x')))).toBe(404);
    expect(await refused(WebWireClient.connect(web, session))).toBeNull();
  });
});
