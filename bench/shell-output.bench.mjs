// Shell output memory: peak resident memory of the built CLI in print mode while a Shell command
// prints one 100 MB line (`head -c 100000000 /dev/zero | tr "\0" x`). Output is cut to the cap while
// it streams in, so the peak stays far below the size of the output. The CLI runs on the Node that
// runs the bench (`/path/to/node bench/run.mjs shell-output` measures another one): on Node 24 the
// same command once peaked at 630 MiB, the bash grammar's lexer being optimized by V8 meanwhile.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const cli = join(here, '..', 'dist/bin/kimi-ts.cjs');
const COMMAND = 'head -c 100000000 /dev/zero | tr "\\0" x';
const TARGET_MIB = 200;

const sse = (res, chunks) => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const delta of chunks) {
    const finish = delta === null ? 'stop' : null;
    const chunk = { id: 'b', object: 'chat.completion.chunk', created: 1, model: 'bench' };
    res.write(
      `data: ${JSON.stringify({ ...chunk, choices: [{ index: 0, delta: delta ?? {}, finish_reason: finish }] })}\n\n`,
    );
  }
  res.end('data: [DONE]\n\n');
};

const peakMiB = (pid) =>
  Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;

export default async function shellOutputBench() {
  const dir = mkdtempSync(join(tmpdir(), 'kimi-ts-bench-shell-'));
  let child;
  let peak = Number.NaN;
  let requests = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests++;
      if (requests === 1) {
        const call = {
          index: 0,
          id: 'c1',
          type: 'function',
          function: { name: 'Shell', arguments: JSON.stringify({ command: COMMAND }) },
        };
        sse(res, [{ role: 'assistant', tool_calls: [call] }, null]);
        return;
      }
      // The tool's result is in this request: the command has run to its end.
      peak = peakMiB(child.pid);
      sse(res, [{ role: 'assistant', content: 'done' }, null]);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const work = join(dir, 'work');
    mkdirSync(work);
    mkdirSync(join(dir, 'home'));
    const config = join(dir, 'config.toml');
    writeFileSync(
      config,
      `default_model = "b"\n[providers.p]\ntype = "openai_legacy"\nbase_url = "http://127.0.0.1:${server.address().port}/v1"\napi_key = "k"\n[models.b]\nprovider = "p"\nmodel = "bench"\nmax_context_size = 100000\n`,
    );
    child = spawn(
      process.execPath,
      [cli, '--config-file', config, '-w', work, '--print', '--yolo', '-p', 'go'],
      {
        env: { PATH: process.env.PATH, HOME: dir, KIMI_TS_HOME: join(dir, 'home') },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    await new Promise((resolve) => child.once('exit', resolve));
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return [
    {
      name: `Shell: one 100 MB output line, CLI peak RSS (Node ${process.versions.node})`,
      value: peak,
      unit: 'MiB',
      target: `≤ ${TARGET_MIB} MiB`,
      ok: peak <= TARGET_MIB,
    },
  ];
}
