import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gate, LoopbackServer, type RecordedRequest } from '../../../test/support/loopback-server.js';
import type { ToolResult } from '../../kosong/index.js';
import { KimiToolset } from '../../toolset/kimi-toolset.js';
import { approvingApproval } from '../../toolset/test-support/approving.js';
import { cleanDispatch, dispatchAll, toolCall } from '../../toolset/test-support/dispatch.js';
import { withTestPolicy } from '../../toolset/test-support/test-policy.js';
import { toolErrorKind } from '../../toolset/tool-errors.js';
import type { WebServices } from '../runtime.js';
import type { HttpLimits } from './bounded-fetch.js';
import { createFetchURL } from './fetch-url.js';

let server: LoopbackServer;
beforeEach(async () => {
  server = await LoopbackServer.start();
});
afterEach(async () => {
  await server.close();
});

function toolsetWith(webServices: WebServices = {}, limits: Partial<HttpLimits> = {}): KimiToolset {
  // FetchURL asks per host (and the loopback server is a private address): a person approves.
  const toolset = new KimiToolset(withTestPolicy({ approval: approvingApproval().approval }));
  toolset.add(createFetchURL({ description: 'Fetch a page.', webServices, limits }));
  return toolset;
}

async function fetchUrl(toolset: KimiToolset, url: string, signal?: AbortSignal): Promise<ToolResult> {
  const [result] = await dispatchAll(
    toolset,
    [toolCall('call-1', 'FetchURL', { url })],
    cleanDispatch(signal),
  );
  return result!;
}

function serve(status: number, contentType: string, body: string | Buffer) {
  return (_req: RecordedRequest, res: ServerResponse) => {
    res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
}

const brief = (result: ToolResult) =>
  result.return_value.display.find((block) => block.type === 'brief')?.text;

const ARTICLE = `<!doctype html><html><head><title>Release notes</title></head><body>
<nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<article><h1>Version 2 is out</h1>
<p>This release brings a <a href="/docs/upgrade">guide for upgrading</a> and many fixes. ${'The new engine is faster and uses less memory than before. '.repeat(8)}</p>
<pre><code>npm install thing@2</code></pre>
<ul><li>first change</li><li>second change</li></ul></article>
<script>window.tracker = 'alert(1)';</script>
</body></html>`;

describe('FetchURL, local fetch', () => {
  it('turns an HTML page into Markdown of its main content with absolute links', async () => {
    server.enqueue(serve(200, 'text/html; charset=utf-8', ARTICLE));
    const result = await fetchUrl(toolsetWith(), `${server.url}/news/v2`);
    const value = result.return_value;
    expect(value.is_error).toBe(false);
    expect(value.message).toBe(
      'The returned content is the main content of the page, converted to Markdown.',
    );
    const output = value.output as string;
    expect(output.startsWith(`Title: Release notes\nURL: ${server.url}/news/v2\n\n`)).toBe(true);
    expect(output).toContain('Version 2 is out');
    expect(output).toContain(`[guide for upgrading](${server.url}/docs/upgrade)`);
    expect(output).toContain('```\nnpm install thing@2\n```');
    expect(output).toMatch(/^- +first change$/m);
    expect(output).not.toContain('window.tracker');
    // The local fetch looks like a desktop browser.
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/news/v2' });
    expect(server.requests[0]!.headers['user-agent']).toMatch(/^Mozilla\/5\.0 .*Chrome/);
  });

  it('follows a redirect on the approved host, and refuses one that bounces to another private host', async () => {
    const inner = await LoopbackServer.start();
    try {
      inner.fallback = serve(200, 'text/plain', 'internal secret page');
      const redirect = (location: string) => (_req: RecordedRequest, res: ServerResponse) => {
        res.writeHead(302, { location, 'content-length': 0 });
        res.end();
      };
      server.enqueue(redirect('/moved'), serve(200, 'text/plain', 'the moved page'));
      const followed = await fetchUrl(toolsetWith(), `${server.url}/old`);
      expect(followed.return_value.output).toBe('the moved page');
      server.enqueue(redirect(`http://localhost:${new URL(inner.url).port}/admin`));
      const bounced = await fetchUrl(toolsetWith(), `${server.url}/bounce`);
      expect(bounced.return_value.is_error).toBe(true);
      expect(brief(bounced)).toBe('Redirect refused');
      expect(inner.requests).toHaveLength(0);
    } finally {
      await inner.close();
    }
  });

  it('returns plain text and Markdown exactly as served, without the per-line cap', async () => {
    const longLine = 'x'.repeat(5_000);
    const text = `line one\n${longLine}\n  indented\n`;
    server.enqueue(
      serve(200, 'text/plain', text),
      serve(200, 'text/markdown; charset=utf-8', '# Title\n\nbody\n'),
    );
    const toolset = toolsetWith();
    const plain = await fetchUrl(toolset, `${server.url}/a.txt`);
    expect(plain.return_value).toMatchObject({
      is_error: false,
      output: text,
      message: 'The returned content is the full content of the page.',
    });
    const markdown = await fetchUrl(toolset, `${server.url}/b.md`);
    expect(markdown.return_value.output).toBe('# Title\n\nbody\n');
  });

  it('decodes the charset the page declares', async () => {
    server.enqueue(serve(200, 'text/plain; charset=iso-8859-1', Buffer.from('café crème', 'latin1')));
    const result = await fetchUrl(toolsetWith(), `${server.url}/latin1`);
    expect(result.return_value.output).toBe('café crème');
  });

  it('falls back to the whole page when Readability finds no main content', async () => {
    server.enqueue(serve(200, 'text/html', '<html><body><aside>Only a side note here</aside></body></html>'));
    const result = await fetchUrl(toolsetWith(), `${server.url}/aside`);
    expect(result.return_value.is_error).toBe(false);
    expect(result.return_value.output).toContain('Only a side note here');
    expect(result.return_value.message).toMatch(/No main article was found/);
  });

  it('reports a page without any text as an extraction failure', async () => {
    server.enqueue(serve(200, 'text/html', '<html><body><script>let a = 1;</script></body></html>'));
    const result = await fetchUrl(toolsetWith(), `${server.url}/empty`);
    expect(result.return_value).toMatchObject({ is_error: true });
    expect(result.return_value.message).toMatch(/^Failed to extract meaningful content from the page/);
    expect(brief(result)).toBe('No content extracted');
  });

  it('answers an empty body with a note instead of an error', async () => {
    server.enqueue(serve(200, 'text/html', ''));
    const result = await fetchUrl(toolsetWith(), `${server.url}/nothing`);
    expect(result.return_value).toMatchObject({
      is_error: false,
      output: '',
      message: 'The response body is empty.',
    });
  });

  it('reports HTTP errors with their status', async () => {
    server.enqueue(serve(404, 'text/html', '<h1>Not here</h1>'));
    const result = await fetchUrl(toolsetWith(), `${server.url}/missing`);
    expect(result.return_value.is_error).toBe(true);
    expect(result.return_value.message).toBe(
      'Failed to fetch URL. Status: 404. The page may not be accessible, or the server may be down.',
    );
    expect(brief(result)).toBe('HTTP 404 error');
  });

  it('refuses binary content and URLs that are not http(s)', async () => {
    server.enqueue(serve(200, 'image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0])));
    const toolset = toolsetWith();
    const image = await fetchUrl(toolset, `${server.url}/logo.png`);
    expect(image.return_value.is_error).toBe(true);
    expect(image.return_value.message).toMatch(/returned `image\/png` content, which is not text/);

    const file = await fetchUrl(toolset, 'file:///etc/passwd');
    expect(file.return_value.is_error).toBe(true);
    expect(brief(file)).toBe('Unsupported URL scheme');
    const garbage = await fetchUrl(toolset, 'not a url');
    expect(brief(garbage)).toBe('Invalid URL');
    expect(server.requests).toHaveLength(1);
  });

  it('accepts a body of exactly the size limit and refuses one byte more, declared or streamed', async () => {
    const limit = 1_000;
    const toolset = toolsetWith({}, { maxBodyBytes: limit });
    server.enqueue(serve(200, 'text/plain', 'a'.repeat(limit)));
    const atLimit = await fetchUrl(toolset, `${server.url}/exact`);
    expect(atLimit.return_value.is_error).toBe(false);
    expect((atLimit.return_value.output as string).length).toBe(limit);

    server.enqueue(serve(200, 'text/plain', 'a'.repeat(limit + 1)));
    const declared = await fetchUrl(toolset, `${server.url}/declared`);
    expect(declared.return_value.is_error).toBe(true);
    expect(declared.return_value.message).toMatch(/larger than 1000 bytes/);
    expect(brief(declared)).toBe('Response too large');

    // No Content-Length: the limit is enforced while reading.
    server.enqueue((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('a'.repeat(600));
      res.end('a'.repeat(401));
    });
    const streamed = await fetchUrl(toolset, `${server.url}/streamed`);
    expect(streamed.return_value.is_error).toBe(true);
    expect(brief(streamed)).toBe('Response too large');
  });

  it('times out when the server does not answer, and when the body stalls', async () => {
    const toolset = toolsetWith({}, { headersTimeoutMs: 150, idleTimeoutMs: 150 });
    server.enqueue(() => {
      // never answers
    });
    const silent = await fetchUrl(toolset, `${server.url}/silent`);
    expect(silent.return_value.is_error).toBe(true);
    expect(silent.return_value.message).toMatch(/the server did not answer within 0\.15 s/);
    expect(brief(silent)).toBe('Timed out');

    server.enqueue((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial');
    });
    const stalled = await fetchUrl(toolset, `${server.url}/stalled`);
    expect(stalled.return_value.is_error).toBe(true);
    expect(stalled.return_value.message).toMatch(/stopped sending data/);
  });

  it('gives up after the total timeout even while data keeps trickling in', async () => {
    const toolset = toolsetWith({}, { totalTimeoutMs: 300, idleTimeoutMs: 10_000 });
    let timer: NodeJS.Timeout | undefined;
    server.enqueue((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      timer = setInterval(() => res.write('.'), 20);
      res.on('close', () => clearInterval(timer));
    });
    const result = await fetchUrl(toolset, `${server.url}/drip`);
    clearInterval(timer);
    expect(result.return_value.message).toMatch(/the request did not complete within 0\.3 s/);
  });

  it('reports a network error for an unreachable server', async () => {
    const closed = await LoopbackServer.start();
    const url = closed.url;
    await closed.close();
    const result = await fetchUrl(toolsetWith(), `${url}/x`);
    expect(result.return_value.is_error).toBe(true);
    expect(result.return_value.message).toMatch(/^Failed to fetch URL due to network error: .*ECONNREFUSED/);
    expect(brief(result)).toBe('Network error');
  });

  it('stops the request when the call is cancelled and closes the connection', async () => {
    const arrived = gate();
    const closedByClient = gate();
    server.enqueue((_req, res) => {
      res.on('close', () => closedByClient.open());
      arrived.open();
    });
    const controller = new AbortController();
    const pending = fetchUrl(toolsetWith(), `${server.url}/hang`, controller.signal);
    await arrived.promise;
    controller.abort(new Error('user cancelled'));
    const result = await pending;
    expect(toolErrorKind(result.return_value)).toBe('cancelled');
    await closedByClient.promise;
  });
});

describe('FetchURL with a fetch service', () => {
  const service = (url: string) => ({
    baseUrl: `${url}/service/fetch`,
    apiKey: 'sk-fetch-secret',
    customHeaders: { 'X-Team': 'tools' },
  });

  it('asks the service first, with its key, the tool call id and custom headers', async () => {
    server.enqueue(serve(200, 'text/markdown', '# Extracted by service\n'));
    const result = await fetchUrl(toolsetWith({ fetch: service(server.url) }), 'https://example.com/page');
    expect(result.return_value).toMatchObject({
      is_error: false,
      output: '# Extracted by service\n',
    });
    expect(server.requests).toHaveLength(1);
    const request = server.requests[0]!;
    expect(request).toMatchObject({
      method: 'POST',
      path: '/service/fetch',
      body: { url: 'https://example.com/page' },
    });
    expect(request.headers).toMatchObject({
      authorization: 'Bearer sk-fetch-secret',
      accept: 'text/markdown',
      'x-msh-tool-call-id': 'call-1',
      'x-team': 'tools',
      'content-type': 'application/json',
    });
    expect(request.headers['user-agent']).toMatch(/^kimi-ts\/\d+\.\d+\.\d+/);
  });

  it('falls back to fetching the page itself when the service fails', async () => {
    server.enqueue(
      serve(500, 'application/json', '{"error":"down"}'),
      serve(200, 'text/plain', 'direct body'),
    );
    const result = await fetchUrl(toolsetWith({ fetch: service(server.url) }), `${server.url}/page.txt`);
    expect(result.return_value).toMatchObject({ is_error: false, output: 'direct body' });
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /service/fetch',
      'GET /page.txt',
    ]);
  });

  it('falls back when the service is unreachable, without leaking its key', async () => {
    const dead = await LoopbackServer.start();
    const deadUrl = dead.url;
    await dead.close();
    server.enqueue(serve(404, 'text/plain', 'gone'));
    const result = await fetchUrl(toolsetWith({ fetch: service(deadUrl) }), `${server.url}/gone`);
    expect(result.return_value.message).toMatch(/Status: 404/);
    expect(JSON.stringify(result)).not.toContain('sk-fetch-secret');
  });
});

describe('FetchURL as a module', () => {
  it('loads from its agent-spec name as a network tool', async () => {
    const toolset = new KimiToolset(withTestPolicy({ approval: approvingApproval().approval }));
    await toolset.loadTools(['kimi-ts/tools/web/fetch-url:FetchURL'], { webServices: {} }, { baseDir: '/' });
    const tool = toolset.find('FetchURL');
    expect(tool?.effect).toBe('network');
    expect(tool?.description).toMatch(/Fetch a web page/);
    expect(tool?.parameters).toMatchObject({ type: 'object', required: ['url'] });
  });
});
