// Terminal UI benchmarks: start to a prompt ready for input, against bare `node -e 0`, both in a
// pseudo-terminal (util-linux `script`); the CPU cost of rendering a long streamed answer in the turn
// view alone, and of a long turn through the whole TUI (tui-turn.mjs); memory after the answer.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { answerTokens } from './answer-tokens.mjs';
import { spawnInPty, tuiCliArgv } from './pty.mjs';
import { longTurn } from './tui-turn.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Milliseconds from spawning `argv` in a pseudo-terminal until its output shows `ready` (or it exits).
 * With `leave`, that is typed once ready and the run ends by itself (else it is killed).
 */
function timeInPty(argv, env, ready, leave) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawnInPty(argv, env);
    let out = '';
    let done = false;
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (!done && ready && out.includes(ready)) {
        done = true;
        const at = performance.now() - started;
        if (leave) {
          child.stdin.write(leave);
          child.on('close', () => resolve(at));
        } else {
          resolve(at);
          child.kill('SIGKILL');
        }
      }
    });
    child.on('error', reject);
    child.on('close', () => {
      if (!done)
        ready ? reject(new Error(`never ready: ${out.slice(-300)}`)) : resolve(performance.now() - started);
    });
  });
}

async function startup(rounds = 9) {
  const dir = mkdtempSync(join(tmpdir(), 'kimi-ts-bench-tui-'));
  const env = { KIMI_TS_HOME: join(dir, 'home') };
  const tui = tuiCliArgv(dir, 'http://127.0.0.1:9/v1', dir);
  const line = [...tui.slice(0, 3), 'line', ...tui.slice(4)];
  const bare = [];
  const ready = [];
  const lineReady = [];
  // One run first to warm the V8 code cache, as every later start of an installed CLI finds it. The
  // cache is written when a run ends normally, so this one leaves (Ctrl-D at the empty prompt).
  await timeInPty(tui, env, 'Enter sends', '\x04');
  for (let round = 0; round < rounds; round++) {
    bare.push(await timeInPty([process.execPath, '-e', '0'], {}, null));
    ready.push(await timeInPty(tui, env, 'Enter sends'));
    lineReady.push(await timeInPty(line, env, 'Type a request'));
  }
  rmSync(dir, { recursive: true, force: true });
  return { bare: median(bare), ready: median(ready), line: median(lineReady) };
}

/**
 * 20,000 tokens of Markdown with code blocks, tables and lists streamed at 200 tokens/s (10 tokens
 * every 50 ms) through the turn view of a 120×40 TUI. The stream's 100 s are simulated: each tick
 * renders at once and its CPU time is measured, so CPU % = CPU time / 100 s, and a frame's work is
 * its CPU time (wall time on a shared machine counts other processes' time too).
 */
export async function streaming() {
  const { cpuPercent, worstMs, bytes } = await streamAnswer();
  return { cpuPercent, worstMs, bytes };
}

/** The streaming run of `streaming()`; returns the TUI and its view too, still holding the answer. */
export async function streamAnswer() {
  const { TUI } = await import('@mariozechner/pi-tui');
  const { TurnView } = await import('../dist/ui/tui/turn-view.js');
  const { tuiStyle } = await import('../dist/ui/tui/tui-style.js');
  const { warmHighlighter } = await import('../dist/ui/tui/highlight-code.js');
  const { warmMarkdown } = await import('../dist/ui/tui/warm-markdown.js');
  // As in the TUI, where both run while the first prompt is typed.
  await warmHighlighter();
  warmMarkdown(tuiStyle(true));
  let bytes = 0;
  const terminal = {
    start() {},
    stop() {},
    async drainInput() {},
    write(data) {
      bytes += data.length;
    },
    columns: 120,
    rows: 40,
    kittyProtocolActive: false,
    moveBy() {},
    hideCursor() {},
    showCursor() {},
    clearLine() {},
    clearFromCursor() {},
    clearScreen() {},
    setTitle() {},
    setProgress() {},
  };
  const tui = new TUI(terminal);
  const view = new TurnView({ style: tuiStyle(true), workDir: root, thinking: 'stream' });
  tui.addChild(view);
  const tokens = answerTokens(20_000);
  const ticks = Math.ceil(tokens.length / 10);
  let worst = 0;
  const cpuStart = process.cpuUsage();
  for (let tick = 0; tick < ticks; tick++) {
    const started = process.cpuUsage();
    for (const text of tokens.slice(tick * 10, tick * 10 + 10)) {
      view.handle({ type: 'ContentPart', payload: { type: 'text', text } });
    }
    tui.doRender();
    const used = process.cpuUsage(started);
    const ms = (used.user + used.system) / 1000;
    if (process.env.TUI_BENCH_SLOW && ms > Number(process.env.TUI_BENCH_SLOW))
      console.error(`tick ${tick}: ${ms.toFixed(1)} ms`);
    worst = Math.max(worst, ms);
  }
  const cpu = process.cpuUsage(cpuStart);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  return { cpuPercent: (cpuMs / (ticks * 50)) * 100, worstMs: worst, bytes, tui, view };
}

/**
 * Memory after the 20,000-token answer ends, in a process of its own (`--expose-gc`, so a full GC
 * can be asked for before each reading): see `tui-memory.mjs`.
 */
function memoryAfterAnswer() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', join(here, 'tui-memory.mjs')], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      out += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`tui-memory.mjs exited with ${code}`));
      resolve(JSON.parse(out.trim().split('\n').at(-1)));
    });
  });
}

export default async function tuiBench() {
  const { bare, ready, line } = await startup();
  const stream = await streaming();
  const memory = await memoryAfterAnswer();
  const turn = await longTurn();
  const mib = (bytes) => bytes / 1024 / 1024;
  const idleGrowth = mib(memory.idleEnd.heapUsed - memory.end.heapUsed);
  return [
    {
      name: 'start to the TUI prompt ready for input (pseudo-terminal; bare `node -e 0` as the loop)',
      value: ready,
      unit: 'ms',
      baseline: bare,
      ratio: ready / bare,
      target: '≤ 2× node -e 0',
      ok: ready <= 2 * bare,
    },
    {
      name: 'start to the line shell prompt (`--ui line`), for comparison',
      value: line,
      unit: 'ms',
      baseline: bare,
      ratio: line / bare,
    },
    {
      name: 'rendering 20,000 streamed tokens at 200 tokens/s (CPU of one core, on average)',
      value: stream.cpuPercent,
      unit: '%',
      target: '≤ 5 %',
      ok: stream.cpuPercent <= 5,
    },
    {
      name: 'worst frame (CPU time) while rendering those 20,000 tokens',
      value: stream.worstMs,
      unit: 'ms',
      target: '≤ 16 ms',
      ok: stream.worstMs <= 16,
    },
    {
      name: 'a long turn through the whole TUI (built CLI in a pseudo-terminal; 2,000 tokens at 200 tokens/s): the CLI’s CPU (model client, soul, wire, TUI) while it streams, share of one core',
      value: turn.cpuPercent,
      unit: '%',
    },
    {
      name: 'that turn from Enter to its last token on screen, against the time the model takes to stream it',
      value: turn.wallMs,
      unit: 'ms',
      baseline: turn.streamMs,
      ratio: turn.wallMs / turn.streamMs,
    },
    {
      name: 'heap held after the answer ended (after a full GC; the answer stays on screen, as in the TUI)',
      value: mib(memory.end.heapUsed - memory.before.heapUsed),
      unit: 'MiB',
    },
    {
      name: `heap growth over ${memory.idleSeconds} idle seconds after the answer (after a full GC each second; redrawn every 100 ms)`,
      value: idleGrowth,
      unit: 'MiB',
      target: 'flat: ≤ 1 MiB',
      ok: idleGrowth <= 1,
    },
    {
      name: `RSS: before the answer → its end → after ${memory.idleSeconds} idle seconds`,
      value: mib(memory.idleEnd.rss),
      unit: `MiB (${mib(memory.before.rss).toFixed(0)} → ${mib(memory.end.rss).toFixed(0)} → ${mib(memory.idleEnd.rss).toFixed(0)})`,
    },
  ];
}
