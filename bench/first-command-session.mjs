// A print-mode session on a real tree, two builds taking turns: the model (a loopback server that
// answers at once) asks for one Shell command (`true`), then answers. Per run: wall from the CLI's
// start to its first request (the start-up, which the secret files' look must not hold), to the second
// request (the first command ran: it waited for that look, since the token scan the files' content
// too) and to the end, and CPU of the whole process tree (wait4's rusage: tree-times.mjs).
// Usage: node bench/first-command-session.mjs BASE_ROOT NEW_ROOT DIR [ROUNDS]
//   (*_ROOT: a built checkout, its dist/bin/kimi-ts.cjs run; DIR: the work dir, used as it is: its
//   `.kimi-ts` is made by the first session.)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startScriptedServer } from './scripted-server.mjs';
import { spawnTimed } from './tree-times.mjs';

const [baseRoot, newRoot, dir] = process.argv.slice(2, 5).map((arg) => resolve(arg));
const rounds = Number(process.argv[5] ?? 5);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function once(root, server, scratch) {
  const home = mkdtempSync(join(scratch, 'home-'));
  const config = join(home, 'config.toml');
  writeFileSync(
    config,
    `default_model = "m"\n[providers.p]\ntype = "openai_legacy"\nbase_url = "${server.baseUrl}"\napi_key = "k"\n[models.m]\nprovider = "p"\nmodel = "m"\nmax_context_size = 100000\n[sandbox]\nscan_workspace_tokens = true\n`,
  );
  server.push({ toolCalls: [{ id: 's', name: 'Shell', args: { command: 'true' } }] }, { text: 'done' });
  const marks = [];
  const started = performance.now();
  const onRequest = () => {
    marks.push(performance.now() - started);
    server.onNextRequest(onRequest);
  };
  server.onNextRequest(onRequest);
  const { child, read } = spawnTimed(
    process.execPath,
    [join(root, 'dist/bin/kimi-ts.cjs'), '--config-file', config, '--print', '-p', 'go'],
    { cwd: dir, env: { ...process.env, KIMI_TS_HOME: home }, stdio: 'ignore' },
    join(home, 'times.txt'),
  );
  const code = await new Promise((done) => child.once('exit', done));
  if (code !== 0) throw new Error(`${root}: exit ${code}`);
  const { cpu, wall } = read();
  return { firstRequest: marks[0], firstCommandDone: marks[1], wall, cpu };
}

const scratch = mkdtempSync(join(tmpdir(), 'kimi-ts-first-session-'));
const server = await startScriptedServer();
try {
  const runs = { base: [], new: [] };
  for (let i = 0; i < rounds; i++)
    for (const [name, root] of i % 2 === 0
      ? [
          ['base', baseRoot],
          ['new', newRoot],
        ]
      : [
          ['new', newRoot],
          ['base', baseRoot],
        ])
      runs[name].push(await once(root, server, scratch));
  for (const [name, list] of Object.entries(runs)) {
    const row = Object.fromEntries(
      ['firstRequest', 'firstCommandDone', 'wall', 'cpu'].map((key) => [
        key,
        `${median(list.map((run) => run[key])).toFixed(0)} ms`,
      ]),
    );
    console.log(name, JSON.stringify(row), 'cpu all:', list.map((run) => run.cpu.toFixed(0)).join(' '));
  }
} finally {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
}
