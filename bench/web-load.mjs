// The load scenario of `kimi-ts web` (issue 15): N sessions at once through one server, each driven
// by one WebSocket client and watched by another, each turn with tool calls (Shell, yolo) answered by
// a loopback model that answers from the history. Checks that every turn finishes and every event
// reaches both clients in the same order; measures wall time and the server's peak RSS (VmHWM).
// Shared by bench/web.bench.mjs and the e2e test (smaller numbers).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';

const CHUNK = { id: 'chatcmpl-web', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'm' };
const chunk = (delta, finish = null) => ({ ...CHUNK, choices: [{ index: 0, delta, finish_reason: finish }] });

/** A model that calls Shell `toolSteps` times per turn (counting tool results since the last user message), then answers. */
function startModel(toolSteps) {
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d) => {
      body += d;
    });
    req.on('end', () => {
      const messages = JSON.parse(body).messages ?? [];
      const lastUser = messages.findLastIndex((m) => m.role === 'user');
      const toolsSince = messages.slice(lastUser + 1).filter((m) => m.role === 'tool').length;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const send = (data) => res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
      if (toolsSince < toolSteps) {
        const call = { index: 0, id: `call-${toolsSince}-${Math.random().toString(36).slice(2)}`, type: 'function' };
        send(chunk({ role: 'assistant', content: `Step ${toolsSince + 1}. ` }));
        send(chunk({ tool_calls: [{ ...call, function: { name: 'Shell', arguments: `{"command":"echo step-${toolsSince}"}` } }] }));
        send(chunk({}, 'tool_calls'));
      } else {
        for (const word of 'All the steps ran and the answer is done.'.split(' ')) send(chunk({ content: `${word} ` }));
        send(chunk({}, 'stop'));
      }
      send({ ...CHUNK, choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } });
      send('[DONE]');
      res.end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        baseUrl: `http://127.0.0.1:${server.address().port}/v1`,
        close: () => new Promise((r) => server.close(r)),
      }),
    ),
  );
}

class Client {
  constructor(ws) {
    this.ws = ws;
    this.frames = [];
    this.waiters = [];
    this.nextId = 1;
    ws.on('message', (data) => {
      const message = JSON.parse(String(data));
      this.frames.push(message);
      for (const w of [...this.waiters])
        if (w.match(message)) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.resolve(message);
        }
    });
  }
  static connect(port, token, id) {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/sessions/${id}/stream`, ['kimi-wire', `bearer.${token}`]);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new Client(ws)));
      ws.once('error', reject);
      ws.once('unexpected-response', (_q, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    });
  }
  waitFor(match) {
    const seen = this.frames.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }
  request(method, params = {}) {
    const id = `r${this.nextId++}`;
    const answer = this.waitFor((m) => m.id === id && m.method === undefined);
    this.ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    return answer;
  }
  /** Event and request frames, as JSON text. */
  stream() {
    return this.frames.filter((m) => m.method === 'event' || m.method === 'request').map((m) => JSON.stringify(m));
  }
}

const peakRssOf = (pid) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

/**
 * Runs the scenario with the built CLI at `launcher`. Resolves with
 * `{ sessions, finished, inOrder, events, wallMs, peakRssBytes }`.
 */
export async function runWebLoad({ launcher, node = process.execPath, sessions = 20, turns = 2, toolSteps = 2 }) {
  const model = await startModel(toolSteps);
  const root = mkdtempSync(join(tmpdir(), 'kimi-ts-web-load-'));
  const home = join(root, 'home');
  const work = join(root, 'work');
  mkdirSync(home);
  mkdirSync(work);
  const config = join(root, 'config.toml');
  writeFileSync(
    config,
    `default_model = "m"\n[providers.p]\ntype = "openai_legacy"\nbase_url = "${model.baseUrl}"\napi_key = "k"\n[models.m]\nprovider = "p"\nmodel = "m"\nmax_context_size = 100000\n`,
  );
  const child = spawn(node, [launcher, '--config-file', config, '-w', work, '--yolo', 'web', '--no-open', '--port', '0'], {
    env: { PATH: process.env.PATH, HOME: root, KIMI_TS_HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise((resolve) => child.on('close', resolve));
  try {
    const [, port, token] = await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (d) => {
        out += d;
        const match = /Open: http:\/\/127\.0\.0\.1:(\d+)\/#token=(\S+)\n/.exec(out);
        if (match) resolve(match);
      });
      exited.then(() => reject(new Error(`the server exited: ${stderr}`)));
    });
    const api = (path, init = {}) =>
      fetch(`http://127.0.0.1:${port}${path}`, {
        ...init,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      });
    const ids = [];
    for (let i = 0; i < sessions; i++) {
      const response = await api('/api/sessions', { method: 'POST', body: JSON.stringify({ work_dir: work }) });
      ids.push((await response.json()).session.id);
    }
    const started = performance.now();
    const results = await Promise.all(
      ids.map(async (id) => {
        const driver = await Client.connect(port, token, id);
        const watcher = await Client.connect(port, token, id);
        await driver.request('initialize', { protocol_version: '1.10' });
        await watcher.request('initialize', { protocol_version: '1.10' });
        let finished = 0;
        for (let turn = 0; turn < turns; turn++) {
          const answer = await driver.request('prompt', { user_input: `turn ${turn}` });
          if (answer.result?.status === 'finished') finished++;
        }
        // The watcher has seen the last TurnEnd once it has as many as the driver.
        const ends = (c) => c.frames.filter((m) => m.method === 'event' && m.params.type === 'TurnEnd').length;
        await watcher.waitFor(() => ends(watcher) >= turns);
        const inOrder = JSON.stringify(driver.stream()) === JSON.stringify(watcher.stream());
        const events = driver.stream().length;
        driver.ws.close();
        watcher.ws.close();
        return { finished, inOrder, events };
      }),
    );
    const wallMs = performance.now() - started;
    const peakRssBytes = peakRssOf(child.pid);
    return {
      sessions,
      turnsPerSession: turns,
      finished: results.reduce((n, r) => n + r.finished, 0),
      inOrder: results.every((r) => r.inOrder),
      events: results.reduce((n, r) => n + r.events, 0),
      wallMs,
      peakRssBytes,
    };
  } finally {
    child.kill('SIGTERM');
    await exited;
    await model.close();
    rmSync(root, { recursive: true, force: true });
  }
}
