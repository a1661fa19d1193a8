// The start-up benches' print runs (startup-phases.mjs, startup-main-thread.mjs): builds given as
// arguments (each a directory with dist/; default: this worktree) take turns in a print run against
// the scripted server, with a preload that writes its marks to stderr. Each build has its own home,
// so each finds its own code cache, written first by one full turn as a user's second run finds it.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startScriptedServer } from './scripted-server.mjs';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * `argv`: [rounds, ...build dirs]. `marks`: the preload (a file beside this one). Returns the rounds,
 * the builds, `markedRun(build, index)` (a print run's stderr) and `close()`.
 */
export async function startPrintRuns(argv, { defaultRounds, marks, prefix }) {
  const rounds = Number(argv[0] ?? defaultRounds);
  const builds = argv.slice(1).map((dir) => resolve(dir));
  if (builds.length === 0) builds.push(join(here, '..'));
  const server = await startScriptedServer();
  const home = mkdtempSync(join(tmpdir(), prefix));
  const work = join(home, 'work');
  mkdirSync(work);
  const config = join(home, 'config.toml');
  writeFileSync(
    config,
    `default_model = "m"\n[providers.p]\ntype = "openai_legacy"\nbase_url = "${server.baseUrl}"\napi_key = "k"\n[models.m]\nprovider = "p"\nmodel = "m"\nmax_context_size = 100000\n[loop_control]\nmax_retries_per_step = 1\n`,
  );
  const printRun = (build, index, prompt, marked) => {
    const args = [
      ...(marked ? ['-r', join(here, marks)] : []),
      join(build, 'dist/bin/kimi-ts.cjs'),
      ...['--config-file', config, '-w', work, '--print', '-p', prompt],
    ];
    const env = { ...process.env, HOME: home, KIMI_TS_HOME: join(home, `home-${index}`) };
    return new Promise((done) => {
      let stderr = '';
      const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.on('close', () => done(stderr));
    });
  };
  for (const [index, build] of builds.entries()) {
    server.push({ text: 'warm' });
    await printRun(build, index, 'warm up', false);
  }
  return {
    rounds,
    builds,
    markedRun: (build, index) => printRun(build, index, 'hi', true),
    close: async () => {
      await server.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
