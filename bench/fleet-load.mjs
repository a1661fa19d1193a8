// The fleet's load scenario (issue 29): W worker processes of the built CLI take S one-turn sessions
// from a real redis-server, against a loopback model that answers at once. Measures sessions/s, the
// queue's added latency per turn (from enqueue to a worker starting it, on an idle fleet: what a
// direct run does not pay), the workers' peak RSS per running turn and Redis memory per session.
// Used by bench/fleet.bench.mjs; FLEET_BENCH_SESSIONS makes it smaller.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';

const root = resolve(import.meta.dirname, '..');
const CLI = join(root, 'dist', 'bin', 'kimi-ts.cjs');
const CHUNK = { id: 'chatcmpl-fleet', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'm' };

function startModel() {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const send = (data) => res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
      send({
        ...CHUNK,
        choices: [{ index: 0, delta: { role: 'assistant', content: 'Done.' }, finish_reason: null }],
      });
      send({ ...CHUNK, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
      send({ ...CHUNK, choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } });
      send('[DONE]');
      res.end();
    });
  });
  return new Promise((done) =>
    server.listen(0, '127.0.0.1', () =>
      done({
        url: `http://127.0.0.1:${server.address().port}/v1`,
        close: () => new Promise((r) => server.close(r)),
      }),
    ),
  );
}

function freePort() {
  return new Promise((done, fail) => {
    const server = createNetServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

/** Waits for `pattern` in what `stream` prints. */
function waitFor(stream, pattern) {
  return new Promise((done, fail) => {
    let seen = '';
    const onData = (chunk) => {
      seen += chunk;
      if (pattern.test(seen)) {
        stream.off('data', onData);
        done();
      }
    };
    stream.setEncoding('utf8').on('data', onData);
    stream.once('close', () => fail(new Error(`closed without ${pattern}: ${seen.slice(-300)}`)));
  });
}

async function startRedis(dir) {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--dir', dir],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await waitFor(child.stdout, /Ready to accept connections/);
  child.stdout.resume();
  return { port, child };
}

const peakRssMb = (pid) => {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : 0;
};
const percentile = (values, p) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];
const redisMemory = (port) =>
  Number(
    /used_memory:(\d+)/.exec(
      execFileSync('redis-cli', ['-p', String(port), 'INFO', 'memory'], { encoding: 'utf8' }),
    )[1],
  );

/** One run: `workers` processes × `concurrency` turns each, `sessions` sessions. */
export async function runFleetLoad({ workers = 4, concurrency = 1, sessions = 200, idleTurns = 30 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'kimi-ts-fleet-bench-'));
  const home = join(dir, 'home');
  const work = join(dir, 'work');
  execFileSync('mkdir', ['-p', home, work, join(dir, 'redis')]);
  const model = await startModel();
  const config = join(dir, 'config.toml');
  writeFileSync(
    config,
    `default_model = "m"\n[providers.local]\ntype = "openai_legacy"\nbase_url = "${model.url}"\napi_key = "sk-bench"\n[models.m]\nprovider = "local"\nmodel = "m"\nmax_context_size = 100000\n`,
  );
  const redis = await startRedis(join(dir, 'redis'));
  const connection = { host: '127.0.0.1', port: redis.port };
  const procs = [];
  try {
    for (let i = 0; i < workers; i++) {
      const child = spawn(
        process.execPath,
        [
          CLI,
          '--config-file',
          config,
          'worker',
          '--queue',
          `redis://127.0.0.1:${redis.port}`,
          '--concurrency',
          String(concurrency),
          '--label',
          `bench-${i}`,
        ],
        {
          env: { PATH: process.env.PATH, HOME: dir, KIMI_TS_HOME: home },
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      procs.push(child);
      await waitFor(child.stderr, /is taking turns from/);
      child.stderr.resume();
    }
    const queue = new Queue('turns', { connection, prefix: 'kimi-ts' });
    const events = new QueueEvents('turns', { connection, prefix: 'kimi-ts' });
    await events.waitUntilReady();
    // Every session's waitUntilFinished listens on both: hundreds at once is the point here.
    queue.setMaxListeners(0);
    events.setMaxListeners(0);
    const job = (n) => ({
      sessionId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      turn: 1,
      workDir: work,
      prompt: `task ${n}`,
      yolo: false,
      afk: false,
    });
    const add = (n) => queue.add('turn', job(n), { jobId: `turn:${job(n).sessionId}:1`, attempts: 1 });
    // Idle fleet: one turn at a time, each after the previous ended; the queue's own latency, up to
    // the turn's first event in its stream (the worker has claimed the session by then).
    const client = new Redis(connection);
    const pickup = [];
    for (let n = 0; n < idleTurns; n++) {
      const added = await add(1_000_000 + n);
      await added.waitUntilFinished(events);
      const [[firstId]] = await client.xrange(
        `kimi-ts:events:${job(1_000_000 + n).sessionId}`,
        '-',
        '+',
        'COUNT',
        1,
      );
      pickup.push(Number(firstId.split('-')[0]) - added.timestamp);
    }
    const memoryBefore = redisMemory(redis.port);
    // Load: every session at once.
    const started = Date.now();
    const all = [];
    for (let n = 0; n < sessions; n++) all.push(await add(n));
    await Promise.all(all.map((j) => j.waitUntilFinished(events)));
    const seconds = (Date.now() - started) / 1000;
    const memoryPerSession = (redisMemory(redis.port) - memoryBefore) / sessions;
    const rss = procs.map((child) => peakRssMb(child.pid));
    client.disconnect();
    await events.close();
    await queue.close();
    return {
      sessionsPerS: sessions / seconds,
      pickupP50: percentile(pickup, 0.5),
      pickupP99: percentile(pickup, 0.99),
      rssPerRunningTurnMb: Math.max(...rss) / concurrency,
      redisBytesPerSession: memoryPerSession,
    };
  } finally {
    for (const child of procs) child.kill('SIGTERM');
    await Promise.all(
      procs.map((child) => new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)))),
    );
    redis.child.kill('SIGTERM');
    await new Promise((r) => redis.child.once('exit', r));
    await model.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
