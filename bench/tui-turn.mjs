// A long turn through the whole terminal UI: the built CLI (`--ui tui`) in a pseudo-terminal (util-linux
// `script`), its model a loopback server streaming a long Markdown answer at 200 tokens/s. Measured:
// the CPU the CLI's processes spend while the answer streams, which is the TUI's controller, turn
// view, status line and renderer together (the streaming rows of tui.bench.mjs drive the turn view
// alone), and the start to the prompt ready for input of the same runs.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { answerTokens } from './answer-tokens.mjs';
import { treeCpuMs } from './process-tree.mjs';
import { spawnInPty, tuiCliArgv } from './pty.mjs';
import { startScriptedServer } from './scripted-server.mjs';

const READY = 'Enter sends';
const END = 'END-OF-THE-LONG-ANSWER';
/** 200 tokens/s: 10 tokens every 50 ms. */
const PACE = { perTick: 10, tickMs: 50 };
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** One TUI run: start, the prompt, the streamed answer to its last token, then Ctrl-D to leave. */
function oneTurn(cli, env, server, tokens) {
  server.push({ paced: { pieces: [...tokens, `\n\n${END}\n`], ...PACE } });
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawnInPty(cli, env);
    let out = '';
    let phase = 'starting';
    let readyMs = 0;
    let sent = { at: 0, cpu: 0 };
    let leaving;
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (phase === 'starting' && out.includes(READY)) {
        phase = 'typing';
        readyMs = performance.now() - started;
        out = '';
        // Typed as keys, one write each (one write would read as a paste).
        child.stdin.write('g');
        child.stdin.write('o');
        setImmediate(() => {
          phase = 'streaming';
          sent = { at: performance.now(), cpu: treeCpuMs(child.pid, { skipRoot: true }) };
          child.stdin.write('\r');
        });
      } else if (phase === 'streaming' && out.includes(END)) {
        phase = 'leaving';
        const cpuMs = treeCpuMs(child.pid, { skipRoot: true }) - sent.cpu;
        const wallMs = performance.now() - sent.at;
        // Ctrl-D leaves once the turn has ended (it does nothing while the turn still runs).
        leaving = setInterval(() => child.stdin.write('\x04'), 100);
        child.on('close', () => resolve({ readyMs, cpuMs, wallMs }));
      }
      if (out.length > 1_000_000) out = out.slice(-100_000);
    });
    child.on('error', reject);
    child.on('close', () => {
      clearInterval(leaving);
      if (phase !== 'leaving') reject(new Error(`the TUI ended ${phase}: ${out.slice(-300)}`));
    });
  });
}

/**
 * `rounds` long turns of `tokenCount` tokens (after one to warm the code cache); medians of the CPU
 * share of one core while streaming, of the streaming wall time and of the start to the prompt.
 */
export async function longTurn({ tokenCount = 2_000, rounds = 3 } = {}) {
  const server = await startScriptedServer();
  const dir = mkdtempSync(join(tmpdir(), 'kimi-ts-bench-tui-turn-'));
  const work = join(dir, 'work');
  mkdirSync(work);
  const env = { KIMI_TS_HOME: join(dir, 'home'), HOME: dir };
  const cli = tuiCliArgv(dir, server.baseUrl, work);
  const tokens = answerTokens(tokenCount);
  try {
    await oneTurn(cli, env, server, tokens.slice(0, 100));
    const runs = [];
    for (let round = 0; round < rounds; round++) runs.push(await oneTurn(cli, env, server, tokens));
    return {
      cpuPercent: median(runs.map((run) => (run.cpuMs / run.wallMs) * 100)),
      wallMs: median(runs.map((run) => run.wallMs)),
      streamMs: (tokens.length / PACE.perTick) * PACE.tickMs,
      readyMs: median(runs.map((run) => run.readyMs)),
    };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

// `node bench/tui-turn.mjs`: this measurement alone, as JSON.
if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(JSON.stringify(await longTurn()));
