import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorResponder, LoopbackServer } from '../../../test/support/loopback-server.js';
import type { ToolResult } from '../../kosong/index.js';
import { KimiToolset } from '../../toolset/kimi-toolset.js';
import { SkipThisTool, toolKit } from '../../toolset/loading/dependencies.js';
import { approvingApproval } from '../../toolset/test-support/approving.js';
import { dispatchAll, toolCall } from '../../toolset/test-support/dispatch.js';
import { testPolicy, withTestPolicy } from '../../toolset/test-support/test-policy.js';
import { toolErrorKind } from '../../toolset/tool-errors.js';
import type { WebServiceConfig } from '../runtime.js';
import type { HttpLimits } from './bounded-fetch.js';
import { createSearchWeb, SearchWeb } from './search-web.js';

let server: LoopbackServer;
beforeEach(async () => {
  server = await LoopbackServer.start();
});
afterEach(async () => {
  await server.close();
});

const serviceAt = (url: string): WebServiceConfig => ({
  baseUrl: `${url}/search`,
  apiKey: 'sk-search-secret',
  customHeaders: { 'X-Client': 'tests' },
});

function toolsetWith(service: WebServiceConfig, limits: Partial<HttpLimits> = {}): KimiToolset {
  const toolset = new KimiToolset(withTestPolicy({ approval: approvingApproval().approval }));
  toolset.add(createSearchWeb({ description: 'Search.', service, limits }));
  return toolset;
}

async function search(toolset: KimiToolset, args: Record<string, unknown>): Promise<ToolResult> {
  const [result] = await dispatchAll(toolset, [toolCall('search-call-7', 'SearchWeb', args)]);
  return result!;
}

function answerJson(body: unknown) {
  return (_req: unknown, res: import('node:http').ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
}

const RESULTS = {
  search_results: [
    {
      site_name: 'Docs',
      title: 'Install guide',
      url: 'https://docs.example.com/install',
      snippet: 'How to install.',
      date: '2026-01-02',
      content: 'Full install page text.',
    },
    { site_name: 'Blog', title: 'Release 2', url: 'https://blog.example.com/r2', snippet: 'What changed.' },
  ],
};

describe('SearchWeb', () => {
  it('is skipped when no search service is configured', async () => {
    await expect(SearchWeb.create({ webServices: {} }, toolKit)).rejects.toBeInstanceOf(SkipThisTool);
    const toolset = new KimiToolset({ policy: testPolicy({ workDir: process.cwd() }) });
    const loaded = await toolset.loadTools(
      ['kimi-ts/tools/web/search-web:SearchWeb'],
      { webServices: {} },
      { baseDir: '/' },
    );
    expect(loaded.tools).toEqual([]);
    expect(loaded.skipped).toHaveLength(1);
    const withService = await SearchWeb.create({ webServices: { search: serviceAt(server.url) } }, toolKit);
    expect(withService).toMatchObject({ name: 'SearchWeb', effect: 'network' });
  });

  it("sends the reference's request and formats each result", async () => {
    server.enqueue(answerJson(RESULTS));
    const result = await search(toolsetWith(serviceAt(server.url)), {
      query: 'install thing',
      include_content: true,
    });
    const request = server.requests[0]!;
    expect(request).toMatchObject({
      method: 'POST',
      path: '/search',
      body: { text_query: 'install thing', limit: 5, enable_page_crawling: true, timeout_seconds: 30 },
    });
    expect(request.headers).toMatchObject({
      authorization: 'Bearer sk-search-secret',
      'x-msh-tool-call-id': 'search-call-7',
      'x-client': 'tests',
    });
    expect(request.headers['user-agent']).toMatch(/^kimi-ts\//);
    expect(result.return_value).toMatchObject({ is_error: false, message: '' });
    expect(result.return_value.output).toBe(
      'Title: Install guide\nDate: 2026-01-02\nURL: https://docs.example.com/install\nSummary: How to install.\n\n' +
        'Full install page text.\n\n' +
        '---\n\n' +
        'Title: Release 2\nDate: \nURL: https://blog.example.com/r2\nSummary: What changed.\n\n',
    );
  });

  it('accepts limits 1 and 20 and refuses 0 and 21 before any request', async () => {
    const toolset = toolsetWith(serviceAt(server.url));
    server.enqueue(answerJson({ search_results: [] }), answerJson({ search_results: [] }));
    for (const limit of [1, 20]) {
      const ok = await search(toolset, { query: 'q', limit });
      expect(ok.return_value.is_error).toBe(false);
    }
    expect(server.requests.map((r) => (r.body as { limit: number }).limit)).toEqual([1, 20]);
    for (const limit of [0, 21, 2.5]) {
      const refused = await search(toolset, { query: 'q', limit });
      expect(toolErrorKind(refused.return_value)).toBe('validate');
    }
    expect(server.requests).toHaveLength(2);
  });

  it('says so when there are no results', async () => {
    server.enqueue(answerJson({ search_results: [] }));
    const result = await search(toolsetWith(serviceAt(server.url)), { query: 'nothing at all' });
    expect(result.return_value).toMatchObject({ is_error: false, output: '' });
    expect(result.return_value.message).toMatch(/no results/);
  });

  it('reports a failing service, a malformed answer and an unreachable service', async () => {
    server.enqueue(errorResponder(503, { error: 'busy' }), answerJson({ unexpected: true }));
    const toolset = toolsetWith(serviceAt(server.url));
    const failed = await search(toolset, { query: 'q' });
    expect(failed.return_value).toMatchObject({
      is_error: true,
      message: 'Failed to search. Status: 503. The search service may be unavailable right now.',
    });
    const malformed = await search(toolset, { query: 'q' });
    expect(malformed.return_value.is_error).toBe(true);
    expect(malformed.return_value.message).toMatch(/^Failed to parse search results: /);

    const dead = await LoopbackServer.start();
    const service = serviceAt(dead.url);
    await dead.close();
    const unreachable = await search(toolsetWith(service), { query: 'q' });
    expect(unreachable.return_value.is_error).toBe(true);
    expect(unreachable.return_value.message).toMatch(/^Failed to search due to network error/);
    for (const result of [failed, malformed, unreachable]) {
      expect(JSON.stringify(result)).not.toContain('sk-search-secret');
    }
  });

  it('times out on a silent service', async () => {
    server.enqueue(() => {
      // never answers
    });
    const result = await search(toolsetWith(serviceAt(server.url), { headersTimeoutMs: 100 }), {
      query: 'q',
    });
    expect(result.return_value.is_error).toBe(true);
    expect(result.return_value.message).toMatch(/did not answer within 0\.1 s/);
  });
});
