import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * One real `redis-server` (Debian's) for one test: a free loopback port, an append-only file in a
 * temp dir, no snapshots. Never a fixed port, never one shared between tests.
 */
export class RedisServer {
  private constructor(
    readonly port: number,
    readonly dir: string,
    private child: ChildProcess,
    private exited: Promise<void>,
  ) {}

  /** `redis://127.0.0.1:PORT`, what `--queue` takes. */
  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<RedisServer> {
    const dir = await mkdtemp(join(tmpdir(), 'kimi-ts-redis-'));
    // A port found free may be taken before redis binds it: try again with another.
    let lastError: unknown;
    for (let attempt = 0; attempt < 5; attempt++) {
      const port = await freePort();
      try {
        return await RedisServer.startOn(port, dir);
      } catch (error) {
        lastError = error;
        if (!String(error).includes('in use')) break;
      }
    }
    await rm(dir, { recursive: true, force: true });
    throw lastError;
  }

  private static startOn(port: number, dir: string): Promise<RedisServer> {
    const child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--dir', dir],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    let log = '';
    return new Promise((resolve, reject) => {
      // Redis says when it accepts connections: wait for that line, not for a time.
      const onData = (chunk: Buffer) => {
        log += chunk.toString();
        if (log.includes('Ready to accept connections')) {
          child.stdout?.off('data', onData);
          child.stdout?.resume();
          child.stderr?.resume();
          resolve(new RedisServer(port, dir, child, exited));
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', (chunk: Buffer) => {
        log += chunk.toString();
      });
      child.once('error', reject);
      child.once('exit', (code) =>
        reject(new Error(`redis-server on port ${port} exited (${code}): ${log.slice(-400)}`)),
      );
    });
  }

  /** Runs `redis-cli -p PORT --raw ARGS…` and returns its output (plain values, one a line). */
  cli(...args: string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      execFile('redis-cli', ['-p', String(this.port), '--raw', ...args], (error, stdout) =>
        error ? reject(error) : resolve(stdout),
      );
    });
  }

  /** Every key and its value(s), as text: what a scan for leaked secrets reads. */
  async dump(): Promise<string> {
    const keys = (await this.cli('--scan')).split('\n').filter(Boolean);
    let out = '';
    for (const key of keys) {
      const type = (await this.cli('TYPE', key)).trim();
      const read: Record<string, string[]> = {
        string: ['GET', key],
        hash: ['HGETALL', key],
        list: ['LRANGE', key, '0', '-1'],
        set: ['SMEMBERS', key],
        zset: ['ZRANGE', key, '0', '-1', 'WITHSCORES'],
        stream: ['XRANGE', key, '-', '+'],
      };
      const command = read[type];
      out += `${key} (${type})\n${command ? await this.cli(...command) : ''}\n`;
    }
    return out;
  }

  /** Stops the server and starts it again on the same port and dir: it reloads its append-only file. */
  async restart(): Promise<void> {
    await this.stop();
    const again = await RedisServer.startOn(this.port, this.dir);
    this.child = again.child;
    this.exited = again.exited;
  }

  /** Stops the server (SIGTERM) and waits for it to exit. */
  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    await this.exited;
  }

  async remove(): Promise<void> {
    await this.stop();
    await rm(this.dir, { recursive: true, force: true });
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
