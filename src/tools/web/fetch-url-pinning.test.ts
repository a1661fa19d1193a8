import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LoopbackServer, type RecordedRequest } from '../../../test/support/loopback-server.js';
import type { ToolResult } from '../../kosong/index.js';
import type { ResolvedAddress } from '../../policy/index.js';
import { KimiToolset } from '../../toolset/kimi-toolset.js';
import { approvingApproval } from '../../toolset/test-support/approving.js';
import { cleanDispatch, dispatchAll, toolCall } from '../../toolset/test-support/dispatch.js';
import { withTestPolicy } from '../../toolset/test-support/test-policy.js';
import { createFetchURL } from './fetch-url.js';

/**
 * #12 item 4, DNS rebinding: the connection goes to the address the policy judged, never to one a
 * later lookup (fetch's own, the system's) gives. The resolver is injected: its answers stand for
 * a hostile DNS server's.
 */
let server: LoopbackServer;
let port: string;
beforeEach(async () => {
  server = await LoopbackServer.start();
  port = new URL(server.url).port;
});
afterEach(async () => {
  await server.close();
});

const PUBLIC: ResolvedAddress = { address: '192.0.2.1', family: 4 };
const LOOPBACK: ResolvedAddress = { address: '127.0.0.1', family: 4 };

function toolsetResolving(answers: (host: string, call: number) => ResolvedAddress[]): {
  toolset: KimiToolset;
  lookups: string[];
} {
  const lookups: string[] = [];
  const toolset = new KimiToolset(withTestPolicy({ approval: approvingApproval().approval }));
  toolset.add(
    createFetchURL({
      description: 'Fetch a page.',
      webServices: {},
      limits: { headersTimeoutMs: 1500 },
      resolveHost: async (host) => {
        lookups.push(host);
        return answers(host, lookups.length);
      },
    }),
  );
  return { toolset, lookups };
}

async function fetchUrl(toolset: KimiToolset, url: string): Promise<ToolResult> {
  const [result] = await dispatchAll(toolset, [toolCall('call-1', 'FetchURL', { url })], cleanDispatch());
  return result!;
}

const page = (_req: RecordedRequest, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end('the loopback page');
};

describe('FetchURL connects to the address the policy checked', () => {
  it('reaches a name only the checked answer knows, with the name kept in the Host header', async () => {
    server.fallback = page;
    const { toolset } = toolsetResolving(() => [LOOPBACK]);
    const result = await fetchUrl(toolset, `http://pinned.invalid:${port}/page`);
    expect(result.return_value.output).toBe('the loopback page');
    expect(server.requests[0]?.headers.host).toBe(`pinned.invalid:${port}`);
  });

  it('never reaches this machine when the checked answer was public, whatever the system resolver says', async () => {
    server.fallback = page;
    // `localhost` is 127.0.0.1 to the system; the answer the policy judged was a public address.
    const { toolset } = toolsetResolving(() => [PUBLIC]);
    const result = await fetchUrl(toolset, `http://localhost:${port}/page`);
    expect(result.return_value.is_error).toBe(true);
    expect(server.requests).toHaveLength(0);
  });

  it('a host that answers public first and 127.0.0.1 after is refused or kept on the public address', async () => {
    server.fallback = page;
    const { toolset, lookups } = toolsetResolving((_host, call) => (call === 1 ? [PUBLIC] : [LOOPBACK]));
    const result = await fetchUrl(toolset, `http://rebind.invalid:${port}/page`);
    expect(lookups.length).toBeGreaterThanOrEqual(1);
    expect(result.return_value.is_error).toBe(true);
    expect(server.requests).toHaveLength(0);
  });

  it('a redirect to another host connects to the address its check saw', async () => {
    const inner = await LoopbackServer.start();
    try {
      inner.fallback = page;
      server.fallback = (_req, res) => {
        res.writeHead(302, { location: `http://elsewhere.invalid:${new URL(inner.url).port}/x` });
        res.end();
      };
      // The redirect's host is judged public (so followed) — the connection must not reach loopback.
      const { toolset } = toolsetResolving((host) => (host === 'elsewhere.invalid' ? [PUBLIC] : [LOOPBACK]));
      const result = await fetchUrl(toolset, `http://start.invalid:${port}/`);
      expect(server.requests).toHaveLength(1);
      expect(inner.requests).toHaveLength(0);
      expect(result.return_value.is_error).toBe(true);
    } finally {
      await inner.close();
    }
  });
});
