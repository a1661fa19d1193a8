import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/** `node_modules/@modelcontextprotocol/server-everything/dist/index.js`. */
export const EVERYTHING_SERVER = join(
  dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);

/** `node_modules/@modelcontextprotocol/server-filesystem/dist/index.js`. */
export const FILESYSTEM_SERVER = join(
  dirname(require.resolve('@modelcontextprotocol/server-filesystem/package.json')),
  'dist',
  'index.js',
);

/** The stdio server of this suite whose tools misbehave on purpose. */
export const FAULT_SERVER = join(dirname(fileURLToPath(import.meta.url)), 'fault-server.mjs');

export interface RunningHttpServer {
  /** Base URL, `http://127.0.0.1:<port>`. */
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * Starts the everything server in `streamableHttp` or `sse` mode on a free loopback port and
 * resolves once it says it is listening.
 */
export async function startEverythingServer(mode: 'streamableHttp' | 'sse'): Promise<RunningHttpServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [EVERYTHING_SERVER, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      stderr += text;
      if (new RegExp(`port ${port}\\b`).test(stderr)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the everything server exited (${code}): ${stderr}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await once(child, 'exit');
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
