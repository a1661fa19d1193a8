// A swarm of 8 subagents running at once (wire mode, a loopback model whose subagent answers stream
// slowly until released): how fast the parent answers a wire `steer` meanwhile (its event loop is
// not starved), and how much resident memory each running subagent adds to the process tree.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { median } from './stats.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const launcher = join(here, '..', 'dist/bin/kimi-ts.cjs');
const SUBAGENTS = 8;
const STEERS = 20;
const REPORT = `Done. ${'The item was handled and every detail was checked carefully. '.repeat(5)}`;

const CHUNK = { id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'm' };
const chunk = (delta, finish = null) => ({ ...CHUNK, choices: [{ index: 0, delta, finish_reason: finish }] });
const send = (res, data) => res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);

function finish(res, toolCalls) {
  send(res, chunk({}, toolCalls ? 'tool_calls' : 'stop'));
  send(res, { ...CHUNK, choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } });
  send(res, '[DONE]');
  res.end();
}

/** The model: the root starts the swarm; each subagent streams a word every 20 ms until released. */
async function startSwarmServer() {
  let started = 0;
  let onAllStarted = () => {};
  const allStarted = new Promise((resolve) => {
    onAllStarted = resolve;
  });
  let release = () => {};
  const released = new Promise((resolve) => {
    release = resolve;
  });
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', async () => {
      const messages = JSON.parse(body).messages;
      const first = messages.find((m) => m.role === 'user');
      const firstText = typeof first?.content === 'string' ? first.content : JSON.stringify(first?.content);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (!firstText.startsWith('Item ')) {
        // After the swarm (the steers came in meanwhile and follow its result): the end.
        if (messages.some((m) => m.role === 'tool')) {
          send(res, chunk({ role: 'assistant', content: 'The swarm is done.' }));
          return finish(res, false);
        }
        const args = {
          description: 'Bench',
          prompt_template: 'Item {{item}}: handle it.',
          items: Array.from({ length: SUBAGENTS }, (_, i) => `n${i}`),
          max_concurrency: SUBAGENTS,
        };
        send(
          res,
          chunk({
            tool_calls: [
              {
                index: 0,
                id: 'swarm',
                type: 'function',
                function: { name: 'AgentSwarm', arguments: JSON.stringify(args) },
              },
            ],
          }),
        );
        return finish(res, true);
      }
      started += 1;
      if (started === SUBAGENTS) onAllStarted();
      send(res, chunk({ role: 'assistant', content: 'Working' }));
      const timer = setInterval(() => send(res, chunk({ content: ' on it' })), 20);
      await released;
      clearInterval(timer);
      send(res, chunk({ content: ` ${REPORT}` }));
      finish(res, false);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${server.address().port}/v1`,
    allStarted,
    release: () => release(),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

function read(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function treeRss(pid) {
  const rss = (p) => Number(/VmRSS:\s+(\d+) kB/.exec(read(`/proc/${p}/status`))?.[1] ?? 0) * 1024;
  const children = (p) => {
    const listed = read(`/proc/${p}/task/${p}/children`).trim();
    return listed ? listed.split(/\s+/).map(Number) : [];
  };
  let sum = 0;
  const walk = (p) => {
    sum += rss(p);
    for (const c of children(p)) walk(c);
  };
  walk(pid);
  return sum;
}

/** JSON-RPC over the child's stdio, one line each. */
function wireClient(child) {
  let next = 1;
  const waiting = new Map();
  let buffer = '';
  child.stdout.on('data', (data) => {
    buffer += data;
    let at = buffer.indexOf('\n');
    while (at >= 0) {
      const line = buffer.slice(0, at);
      buffer = buffer.slice(at + 1);
      at = buffer.indexOf('\n');
      if (!line.trim()) continue;
      const message = JSON.parse(line);
      if (message.id !== undefined && message.method === undefined) waiting.get(message.id)?.(message);
    }
  });
  return (method, params) =>
    new Promise((resolve) => {
      const id = String(next++);
      waiting.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
}

export default async function swarmBench() {
  const dir = mkdtempSync(join(tmpdir(), 'kimi-ts-swarm-bench-'));
  const server = await startSwarmServer();
  try {
    const home = join(dir, 'home');
    const work = join(dir, 'work');
    mkdirSync(home);
    mkdirSync(work);
    const config = join(dir, 'config.toml');
    writeFileSync(
      config,
      `default_model = "m"\n[providers.p]\ntype = "openai_legacy"\nbase_url = "${server.baseUrl}"\napi_key = "k"\n[models.m]\nprovider = "p"\nmodel = "m"\nmax_context_size = 100000\n[subagents]\nmax_concurrency = ${SUBAGENTS}\n`,
    );
    const child = spawn(
      process.execPath,
      [launcher, '--config-file', config, '-w', work, '--wire', '--yolo'],
      {
        env: { PATH: process.env.PATH, HOME: dir, KIMI_TS_HOME: home },
        stdio: ['pipe', 'pipe', 'ignore'],
      },
    );
    const request = wireClient(child);
    await request('initialize', { protocol_version: '1.10' });
    const idle = treeRss(child.pid);
    const prompt = request('prompt', { user_input: 'Run the bench swarm.' });
    await server.allStarted;
    const steers = [];
    for (let i = 0; i < STEERS; i++) {
      const start = performance.now();
      const answer = await request('steer', { user_input: `note ${i}` });
      if (answer.result?.status !== 'steered') throw new Error(`steer: ${JSON.stringify(answer)}`);
      steers.push(performance.now() - start);
    }
    const running = treeRss(child.pid);
    server.release();
    const done = await prompt;
    if (done.result?.status !== 'finished') throw new Error(`prompt: ${JSON.stringify(done)}`);
    child.stdin.end();
    await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.on('close', resolve)));
    const steerMedian = median(steers);
    const steerMax = Math.max(...steers);
    const perSubagent = (running - idle) / SUBAGENTS / (1024 * 1024);
    return [
      {
        name: `steer answered, ${SUBAGENTS} subagents streaming (median)`,
        value: steerMedian,
        unit: 'ms',
        target: '≤ 50 ms',
        ok: steerMedian <= 50,
      },
      {
        name: `steer answered, ${SUBAGENTS} subagents streaming (max of ${STEERS})`,
        value: steerMax,
        unit: 'ms',
        target: '≤ 50 ms',
        ok: steerMax <= 50,
      },
      {
        name: 'RSS growth per running subagent',
        value: perSubagent,
        unit: 'MiB',
        target: '≤ 30 MiB',
        ok: perSubagent <= 30,
      },
    ];
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
