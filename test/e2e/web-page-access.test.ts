import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type TestBrowser } from '../support/browser.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { startWebFor, type WebServerProcess } from '../support/web-server-client.js';

/**
 * What the page and a browser may do without the token, or from another site: the page asks for the
 * token and the API answers 401; a page on a foreign origin cannot open the session's WebSocket or
 * read the API even when it knows the token.
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

/** A browser page, closed after the test. */
async function newPage() {
  const watched = await browser.newPage();
  cli.defer(() => watched.context.close());
  return watched;
}

/** A page on another origin (another port of the same loopback address). */
async function startForeignSite(): Promise<string> {
  const foreign: Server = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end('<!doctype html><title>elsewhere</title><p>a foreign site</p>');
  });
  await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
  cli.defer(
    () =>
      new Promise<void>((resolve) => {
        foreign.close(() => resolve());
        foreign.closeAllConnections();
      }),
  );
  return `http://127.0.0.1:${(foreign.address() as AddressInfo).port}/`;
}

describe('kimi-ts web: the page without the token, and other sites', () => {
  it('without the token: the page asks for it, and the API answers 401', async () => {
    await cli.setup([]);
    web = await startWeb();
    const { page } = await newPage();
    await page.goto(new URL(web.base).origin);
    await page.getByText('This page needs the access token').waitFor();
    const status = await page.evaluate(`fetch('/api/sessions').then((r) => r.status)`);
    expect(status).toBe(401);
    const opened = await page.evaluate(`new Promise((resolve) => {
      const ws = new WebSocket(location.origin.replace('http', 'ws') + '/api/sessions/x/stream', ['kimi-wire']);
      ws.onopen = () => resolve('open');
      ws.onerror = () => resolve('refused');
    })`);
    expect(opened).toBe('refused');
  });

  it('a foreign origin cannot open the stream or read the API, even with the token', async () => {
    await cli.setup([]);
    web = await startWeb();
    const created = await fetch(`${new URL(web.base).origin}/api/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${web.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ work_dir: cli.sandbox.workDir }),
    });
    expect(created.status).toBe(201);
    const { session } = (await created.json()) as { session: { id: string } };
    const stream = `${new URL(web.base).origin.replace('http', 'ws')}/api/sessions/${session.id}/stream`;

    // The same token from the server's own page opens the stream: the refusal below is the origin's.
    const own = await newPage();
    await own.page.goto(`${web.base}#token=${web.token}`);
    const ownResult = await own.page.evaluate(`new Promise((resolve) => {
      const ws = new WebSocket(${JSON.stringify(stream)}, ['kimi-wire', 'bearer.' + ${JSON.stringify(web.token)}]);
      ws.onopen = () => { resolve('open'); ws.close(); };
      ws.onerror = () => resolve('refused');
    })`);
    expect(ownResult).toBe('open');

    const { page } = await newPage();
    await page.goto(await startForeignSite());
    const wsResult = await page.evaluate(`new Promise((resolve) => {
      const ws = new WebSocket(${JSON.stringify(stream)}, ['kimi-wire', 'bearer.' + ${JSON.stringify(web.token)}]);
      ws.onopen = () => resolve('open');
      ws.onerror = () => resolve('refused');
    })`);
    expect(wsResult).toBe('refused');
    const apiResult =
      await page.evaluate(`fetch(${JSON.stringify(`${new URL(web.base).origin}/api/sessions`)}, {
      headers: { authorization: 'Bearer ' + ${JSON.stringify(web.token)} },
    }).then((r) => r.text()).catch(() => 'blocked')`);
    expect(apiResult).toBe('blocked');
  });
});
