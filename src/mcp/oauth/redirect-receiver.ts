import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const CALLBACK_PATH = '/callback';

export interface RedirectReceiver {
  /** `http://127.0.0.1:<port>/callback`, the redirect URL to register. */
  readonly url: string;
  /**
   * Resolves with the authorization code the browser brings back. Rejects when the authorization
   * server reports an error, the state does not match, `signal` aborts, or `timeoutMs` passes.
   */
  waitForCode(options: {
    expectedState: () => string | undefined;
    signal?: AbortSignal;
    timeoutMs: number;
  }): Promise<string>;
  close(): Promise<void>;
}

type Outcome = { code: string; state: string | null } | { error: string };

/**
 * A one-shot HTTP listener on the loopback interface for the OAuth redirect (RFC 8252 §7.3).
 * Tries `preferredPort` first (the port the client was registered with), any free port otherwise.
 */
export async function startRedirectReceiver(preferredPort?: number): Promise<RedirectReceiver> {
  let deliver: ((outcome: Outcome) => void) | undefined;
  let early: Outcome | undefined;
  const sockets = new Set<import('node:net').Socket>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== CALLBACK_PATH) {
      res.writeHead(404).end();
      return;
    }
    const error = url.searchParams.get('error');
    const code = url.searchParams.get('code');
    const state = url.searchParams.get('state');
    const description = url.searchParams.get('error_description');
    const outcome: Outcome = error
      ? { error: description ? `${error}: ${description}` : error }
      : code
        ? { code, state }
        : { error: 'the redirect carried neither a code nor an error' };
    const ok = 'code' in outcome;
    res.writeHead(ok ? 200 : 400, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      ok
        ? '<!doctype html><title>kimi-ts</title><p>Authorization received. You can close this tab and return to the terminal.</p>'
        : '<!doctype html><title>kimi-ts</title><p>Authorization failed. See the terminal for details.</p>',
    );
    if (deliver) deliver(outcome);
    else early ??= outcome;
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await listen(server, preferredPort);
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}${CALLBACK_PATH}`,
    waitForCode({ expectedState, signal, timeoutMs }) {
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(
          () => finish(new Error(`no authorization arrived within ${Math.round(timeoutMs / 1000)} s`)),
          timeoutMs,
        );
        const onAbort = (): void => finish(signal?.reason ?? new Error('authorization was cancelled'));
        const finish = (result: Error | string): void => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          deliver = undefined;
          if (typeof result === 'string') resolve(result);
          else reject(result);
        };
        if (signal?.aborted) return onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
        deliver = (outcome) => {
          if ('error' in outcome)
            return finish(new Error(`the authorization server refused: ${outcome.error}`));
          const expected = expectedState();
          if (expected !== undefined && outcome.state !== expected) {
            return finish(
              new Error(
                'the redirect came back with a different state: it was not the answer to this request',
              ),
            );
          }
          finish(outcome.code);
        };
        if (early) {
          const outcome = early;
          early = undefined;
          deliver(outcome);
        }
      });
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function listen(server: Server, preferredPort: number | undefined): Promise<void> {
  const attempt = (port: number): Promise<void> =>
    new Promise((resolve, reject) => {
      const onError = (error: Error): void => reject(error);
      server.once('error', onError);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', onError);
        resolve();
      });
    });
  if (preferredPort) {
    try {
      return await attempt(preferredPort);
    } catch {
      // Taken: any free port will do (the client is registered again for it).
    }
  }
  await attempt(0);
}
