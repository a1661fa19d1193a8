import { readdir, readFile, writeFile } from 'node:fs/promises';
import { get } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ZipFile } from 'yazl';
import { useBrowser, type WatchedPage } from '../support/browser.js';
import { collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { startVisCli, type VisCli } from '../support/vis-cli.js';
import { WireClient } from '../support/wire-process-client.js';

const HOSTILE = 'Done <img src=x onerror="alert(1)"><script>alert(2)</script></script><b id="pwned">bold</b>';
const API_KEY = 'sk-vis-secret-0123456789';

const cli = useScriptedCli();
const browser = useBrowser();

/** A real scripted run: a tool call, a failed model call retried, a hostile answer, a second turn. */
async function makeSession() {
  const { sandbox } = await cli.setup(
    [
      {
        text: 'Let me look.',
        toolCalls: [{ id: 'c1', name: 'Shell', args: { command: 'echo "<script>alert(3)</script>"' } }],
        usage: { prompt_tokens: 1200, completion_tokens: 30 },
      },
      { status: 500 },
      { text: HOSTILE, usage: { prompt_tokens: 1300, completion_tokens: 20 } },
      { text: 'Reading.', toolCalls: [{ id: 'c2', name: 'ReadFile', args: { path: 'missing.txt' } }] },
      { text: 'Second answer.' },
    ],
    { apiKey: API_KEY },
  );
  for (const prompt of [`first, with the key ${API_KEY}`, 'second']) {
    const run = await sandbox.run([
      '--print',
      '--yolo',
      ...(prompt === 'second' ? ['-C'] : []),
      '-p',
      prompt,
    ]);
    expect(run.code, run.stderr).toBe(0);
  }
  const sessions = join(sandbox.home, 'sessions');
  const [key] = await readdir(sessions);
  const [id] = await readdir(join(sessions, key!));
  return { sandbox, id: id!, dir: join(sessions, key!, id!) };
}

/** A ZIP with two entries of the same name (yazl writes what it is given). */
async function zipWithDuplicate(name: string): Promise<Buffer> {
  const zip = new ZipFile();
  zip.addBuffer(Buffer.from('one'), name);
  zip.addBuffer(Buffer.from('two'), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function rawGet(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    get(url, { headers }, (response) => {
      response.resume();
      resolvePromise(response.statusCode ?? 0);
    }).on('error', reject);
  });
}

async function openVis(page: WatchedPage, url: string): Promise<number> {
  await page.page.goto(url);
  await page.page.waitForSelector('html[data-vis-rendered]', { timeout: 15_000 });
  return Number(await page.page.getAttribute('canvas.timeline-canvas', 'data-bars'));
}

/** Nothing from the model ran or became markup. */
async function expectInert(page: WatchedPage): Promise<void> {
  expect(page.dialogs).toEqual([]);
  expect(await page.page.locator('#pwned').count()).toBe(0);
  expect(await page.page.locator('main img').count()).toBe(0);
}

describe('kimi-ts vis', () => {
  let vis: VisCli | undefined;

  it('serves the picture of a real session: bars, charts, events; refuses without the token or from elsewhere', async () => {
    const { sandbox, id } = await makeSession();
    vis = await startVisCli(sandbox, [id]);
    try {
      const api = `${vis.origin}/api/vis/sessions`;
      expect((await fetch(api)).status).toBe(401);
      expect(
        (await fetch(api, { headers: { Authorization: 'Bearer wrong-token-0123456789abcdef' } })).status,
      ).toBe(401);
      // The address carries the token in its fragment, which never reaches a server or a log.
      expect(vis.url).toMatch(/\/#token=/);
      expect(vis.output).not.toMatch(/\?token=/);
      const auth = { Authorization: `Bearer ${vis.token}` };
      expect((await fetch(api, { headers: { ...auth, Origin: 'http://evil.example' } })).status).toBe(403);
      expect(await rawGet(api, { ...auth, Host: `evil.example:${new URL(vis.origin).port}` })).toBe(403);
      expect(await rawGet(api, auth)).toBe(200);
      expect((await fetch(`${api}/..%2F..%2Fetc/model`, { headers: auth })).status).toBe(404);

      const model = (await (await fetch(`${api}/${id}/model`, { headers: auth })).json()) as {
        spans: { kind: string; label: string }[];
        summary: { turns: number; steps: number; toolCalls: number; retries: number };
      };
      expect(model.summary).toMatchObject({ turns: 2, steps: 4, toolCalls: 2, retries: 1 });
      const everything =
        JSON.stringify(model) +
        (await (await fetch(`${api}/${id}/events?limit=500`, { headers: auth })).text());
      expect(everything).not.toContain(API_KEY);

      const page = await browser.newPage({ width: 1400, height: 900 });
      const bars = await openVis(page, vis.url);
      expect(bars).toBe(model.spans.length);
      expect(
        await page.page.locator('[data-chart="tokens"] path[data-series="input"]').getAttribute('d'),
      ).toMatch(/^M/);
      expect(await page.page.locator('[data-chart="context"] polyline').getAttribute('points')).not.toBe('');
      await expect.poll(() => page.page.locator('.line-list li').count()).toBeGreaterThan(10);

      // A click on the first tool bar shows its event (the ToolCall) beside the timeline.
      const toolIndex = model.spans.findIndex((s) => s.kind === 'tool');
      const box = await page.page.evaluate((index) => {
        const hook = (
          globalThis as unknown as {
            __kimiVis: {
              spanBox(i: number): { x: number; y: number; width: number; height: number };
              left: number;
              top: number;
            };
          }
        ).__kimiVis;
        const b = hook.spanBox(index);
        return { x: hook.left + b.x + Math.min(4, b.width / 2), y: hook.top + b.y + b.height / 2 };
      }, toolIndex);
      await page.page.mouse.click(box.x, box.y);
      await expect.poll(() => page.page.locator('.detail pre').first().textContent()).toContain('"ToolCall"');
      expect(await page.page.locator('.selected-bar').textContent()).toContain('Shell echo');

      // The hostile answer is found by search and shown as text.
      await page.page.fill('input[aria-label="search events"]', 'onerror');
      await expect.poll(() => page.page.locator('.line-list li').count()).toBe(1);
      expect(await page.page.locator('.line-list li .text').textContent()).toContain('<img src=x onerror');
      await page.page.click('.line-list li button');
      await expect
        .poll(() => page.page.locator('.detail pre').first().textContent())
        .toContain('<script>alert(2)</script>');
      await expectInert(page);
      expect(page.errors).toEqual([]);

      await page.page.fill('input[aria-label="search events"]', '');
      await page.page.mouse.click(box.x, box.y);
      // docs/vis.png is written only with KIMI_TS_DOCS_SCREENSHOTS=1 (it is committed).
      await page.screenshot('vis-timeline', { docs: 'vis.png' });
    } finally {
      await vis.stop();
    }
  });

  it('--export writes one HTML file that opens from file:// and shows the same bars, inert', async () => {
    const { sandbox, id, dir } = await makeSession();
    const file = join(sandbox.root, 'session.html');
    // No session named: the latest of the work dir.
    const run = await sandbox.run(['vis', '--export', file]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`session ${id}`);
    const html = await readFile(file, 'utf8');
    // A session folder (copied from elsewhere) is taken as well; a ZIP that is not there is named.
    const fromFolder = await sandbox.run(['vis', '--export', join(sandbox.root, 'folder.html'), dir]);
    expect(fromFolder.code, fromFolder.stderr).toBe(0);
    const zip = await sandbox.run([
      'vis',
      '--export',
      join(sandbox.root, 'zip.html'),
      join(sandbox.root, 's.zip'),
    ]);
    expect(zip.code).toBe(1);
    expect(zip.stderr).toContain(`There is no ZIP file ${join(sandbox.root, 's.zip')}`);
    expect(html).not.toContain(API_KEY);
    // The model's `</script>` cannot end the embedded data early.
    expect(html).not.toContain('<script>alert(2)</script>');
    expect(html.match(/<script/g)?.length).toBe(2);

    vis = await startVisCli(sandbox, [id]);
    let liveBars: number;
    try {
      liveBars = await openVis(await browser.newPage(), vis.url);
    } finally {
      await vis.stop();
    }
    const page = await browser.newPage({ width: 1400, height: 900 });
    const bars = await openVis(page, pathToFileURL(file).href);
    expect(bars).toBe(liveBars);
    expect(bars).toBeGreaterThan(5);
    expect(await page.page.locator('.badge').textContent()).toBe('exported file');
    await page.page.fill('input[aria-label="search events"]', 'onerror');
    await expect.poll(() => page.page.locator('.line-list li').count()).toBe(1);
    await page.page.click('.line-list li button');
    await expect
      .poll(() => page.page.locator('.detail pre').textContent())
      .toContain('<script>alert(2)</script>');
    await expectInert(page);
    expect(page.errors).toEqual([]);
    await page.screenshot('vis-export');
  });
  it('a session exported as a ZIP opens in vis on another machine: named on the command line, or uploaded on the page, inert', async () => {
    const { sandbox, id } = await makeSession();
    const zipPath = join(sandbox.root, 'shared.zip');
    const exported = await sandbox.run(['export', id, '-o', zipPath]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toContain(`Wrote session ${id} to ${zipPath}`);
    const bytes = await readFile(zipPath);
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    expect(bytes.includes(Buffer.from(API_KEY))).toBe(false);
    const again = await sandbox.run(['export', id, '--zip', '-o', zipPath]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('exists; pass -y to replace it');
    expect((await sandbox.run(['export', id, '-o', zipPath, '-y'])).code).toBe(0);
    // --zip alone: a file named after the session, where the command runs.
    expect((await sandbox.run(['export', id, '--zip'])).code).toBe(0);
    expect(await readdir(sandbox.workDir)).toContain(`kimi-ts-session-${id}.zip`);

    // Another machine: a home of its own. The ZIP on the command line is imported, then shown.
    const other = await cli.createSandbox({ baseUrl: cli.server.baseUrl });
    vis = await startVisCli(other, [zipPath]);
    try {
      expect(vis.output).toContain(
        `Imported session ${id} into ${join(other.home, 'imported_sessions', id)}`,
      );
      const auth = { Authorization: `Bearer ${vis.token}` };
      const summary = await (
        await fetch(`${vis.origin}/api/vis/sessions/${id}/summary`, { headers: auth })
      ).json();
      expect(summary).toMatchObject({ turns: 2, steps: 4, toolCalls: 2, retries: 1 });
    } finally {
      await vis.stop();
    }

    // A third, with no session at all: the ZIP is uploaded through the page.
    const third = await cli.createSandbox({ baseUrl: cli.server.baseUrl });
    vis = await startVisCli(third);
    try {
      const page = await browser.newPage({ width: 1400, height: 900 });
      await page.page.goto(vis.url);
      await page.page.waitForSelector('text=No sessions yet.');
      // A hostile archive first: its error, which quotes an entry name full of HTML, stays text.
      const hostile = join(third.root, 'hostile.zip');
      await writeFile(hostile, await zipWithDuplicate('<img src=x onerror="alert(9)"><b id="pwned">x</b>'));
      // On the command line, the same refusal, and nothing imported.
      const refused = await third.run(['vis', '--export', join(third.root, 'h.html'), hostile]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('appears twice');
      await page.page.setInputFiles('input[aria-label="import a session ZIP"]', hostile);
      await expect
        .poll(() => page.page.locator('.import-status.error').textContent())
        .toContain('appears twice');
      expect(await page.page.locator('.import-status').textContent()).toContain('<img src=x onerror=');
      await page.page.setInputFiles('input[aria-label="import a session ZIP"]', zipPath);
      await page.page.waitForSelector('html[data-vis-rendered]', { timeout: 15_000 });
      expect(await page.page.locator('.import-status').textContent()).toBe(`Imported ${id}.`);
      expect(Number(await page.page.getAttribute('canvas.timeline-canvas', 'data-bars'))).toBeGreaterThan(5);
      await page.page.fill('input[aria-label="search events"]', 'onerror');
      await expect.poll(() => page.page.locator('.line-list li').count()).toBe(1);
      await page.page.click('.line-list li button');
      await expect
        .poll(() => page.page.locator('.detail pre').first().textContent())
        .toContain('<script>alert(2)</script>');
      await expectInert(page);
      // The browser logs the hostile upload's 400; nothing else went wrong.
      expect(page.errors).toEqual([expect.stringContaining('status of 400')]);
      await page.screenshot('vis-zip-import');
      expect((await readdir(join(third.home, 'imported_sessions'))).sort()).toEqual([id]);
    } finally {
      await vis.stop();
    }
  });

  it('shows an approval waited on in a wire-mode run as a bar, and the wait as time waiting for the user', async () => {
    const { sandbox } = await cli.setup([
      { toolCalls: [{ id: 'w1', name: 'Shell', args: { command: 'echo approved' } }] },
      { text: 'ran it' },
    ]);
    const client = new WireClient(sandbox.spawn(['--wire']));
    const prompt = client.request('prompt', { user_input: 'run it' });
    const ask = await client.waitFor((m) => m.method === 'request');
    const request = (ask.params as { payload: { id: string } }).payload;
    client.send({ jsonrpc: '2.0', id: ask.id, result: { request_id: request.id, response: 'approve' } });
    expect((await prompt).result).toEqual({ status: 'finished' });
    client.child.stdin!.end();
    await collect(client.child);

    vis = await startVisCli(sandbox);
    try {
      const auth = { Authorization: `Bearer ${vis.token}` };
      const [session] = (
        (await (await fetch(`${vis.origin}/api/vis/sessions`, { headers: auth })).json()) as {
          sessions: { id: string }[];
        }
      ).sessions;
      const model = (await (
        await fetch(`${vis.origin}/api/vis/sessions/${session!.id}/model`, { headers: auth })
      ).json()) as {
        spans: { kind: string; label: string; end: number | null }[];
        summary: { approvals: number; seconds: { waiting: number } };
      };
      expect(model.summary.approvals).toBe(1);
      expect(model.summary.seconds.waiting).toBeGreaterThan(0);
      const approval = model.spans.find((s) => s.kind === 'approval');
      expect(approval?.label).toMatch(/^approval: Shell .* → approve$/);
      expect(approval?.end).not.toBeNull();

      const page = await browser.newPage();
      // No session in the address: the page opens the newest one.
      expect(await openVis(page, vis.url)).toBe(model.spans.length);
      expect(await page.page.locator('[data-chart="time"] .legend').textContent()).toMatch(
        /waiting for approval [1-9]/,
      );
      // The keyboard walks the bars: the first is the turn, the next its first step.
      await page.page.focus('canvas.timeline-canvas');
      await page.page.keyboard.press('ArrowRight');
      await expect.poll(() => page.page.locator('.selected-bar').textContent()).toContain('turn 1: run it');
      await page.page.keyboard.press('ArrowRight');
      await expect.poll(() => page.page.locator('.selected-bar').textContent()).toContain('step 1');
      await expect.poll(() => page.page.locator('.detail h3').textContent()).toMatch(/^event 1 \d/);
      expect(page.errors).toEqual([]);
    } finally {
      await vis.stop();
    }
  });
});
