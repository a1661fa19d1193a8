// Where the sandboxed spawn's CPU goes (issue #26, "Per step"): `bwrap <kimi-ts's arguments> bash -c
// 'wc -l notes.txt'` as the session builds them (everything-on.bench.mjs's home, config file and work
// dir), against variants that each drop one kind of argument, and against the bare command. CPU is the
// tree's user + system time from wait4's rusage (tree-times.mjs), in rounds that run every variant
// once in a shuffled order; medians and quartiles. Not a bench row: the variants drop protection,
// they only tell what each part costs.
// Usage (after `npm run build`): node bench/sandbox-arg-costs.mjs [rounds, default 40]
import { closeSync, constants, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCommandSandbox } from '../dist/policy/sandbox.js';
import { spawnTimed } from './tree-times.mjs';

const ROUNDS = Number(process.argv[2] ?? 40);
const COMMAND = ['/bin/bash', '-c', 'wc -l notes.txt'];

/** bwrap's options and how many values each takes (the ones kimi-ts uses). */
const ARITY = {
  '--ro-bind': 2,
  '--bind': 2,
  '--bind-fd': 2,
  '--ro-bind-fd': 2,
  '--dev': 1,
  '--proc': 1,
  '--tmpfs': 1,
  '--remount-ro': 1,
  '--seccomp': 1,
  '--setenv': 2,
  '--chdir': 1,
  '--cap-drop': 1,
};

/** The arguments as [option, ...values] groups. */
function groups(argv) {
  const out = [];
  for (let i = 0; i < argv.length; ) {
    const n = ARITY[argv[i]] ?? 0;
    out.push(argv.slice(i, i + 1 + n));
    i += 1 + n;
  }
  return out;
}

const home = mkdtempSync(join(tmpdir(), 'kimi-ts-sandbox-arg-costs-'));
try {
  const config = join(home, 'config-on.toml');
  writeFileSync(config, 'default_model = "m"\n');
  const work = mkdtempSync(join(home, 'work-'));
  writeFileSync(join(work, 'notes.txt'), 'release 2.4: faster start-up\n');
  const state = createCommandSandbox(
    { mode: 'workspace-write', network: false },
    {
      workDir: work,
      additionalDirs: () => [],
      userHome: home,
      kimiHome: join(home, 'home'),
      configFiles: [config],
      path: process.env.PATH,
    },
  );
  if (state.kind !== 'on') throw new Error('the sandbox cannot run here');
  const launch = await state.sandbox.launch(work);
  await state.sandbox.commandEnded();
  const [bwrap, ...rest] = launch.argv;
  const all = groups(rest.slice(0, -1)); // without the closing `--`
  const hiddenDirs = all.filter((g) => g[0] === '--remount-ro').map((g) => g[1]);
  const without = (drop) => [bwrap, ...all.filter((g) => !drop(g)).flat()];
  const variants = {
    bare: null,
    'kimi-ts (all)': without(() => false),
    'no --dev': without((g) => g[0] === '--dev'),
    '--tmpfs /dev (no nodes)': [bwrap, ...all.flatMap((g) => (g[0] === '--dev' ? ['--tmpfs', '/dev'] : g))],
    'no --proc': without((g) => g[0] === '--proc'),
    'no --unshare-net': without((g) => g[0] === '--unshare-net'),
    'no pid ns (--unshare-pid, --as-pid-1, --proc)': without((g) =>
      ['--unshare-pid', '--as-pid-1', '--proc'].includes(g[0]),
    ),
    'no --unshare-ipc': without((g) => g[0] === '--unshare-ipc'),
    'no --seccomp': without((g) => g[0] === '--seccomp'),
    'no --die-with-parent': without((g) => g[0] === '--die-with-parent'),
    'no --cap-drop (run by root)': without((g) => g[0] === '--cap-drop'),
    'no hidden paths': without(
      (g) =>
        (g[0] === '--tmpfs' && hiddenDirs.includes(g[1])) ||
        g[0] === '--remount-ro' ||
        (g[0] === '--ro-bind' && g[1] === '/dev/null'),
    ),
    'no .kimi-ts read-only bind': without((g) => g[0] === '--ro-bind-fd'),
    'mount ns only (/, work dir)': [bwrap, '--ro-bind', '/', '/', '--bind-fd', '4', work, '--chdir', work],
  };
  const timesFile = join(home, 'times.txt');
  const run = async (argv) => {
    const seccomp = argv?.includes('--seccomp') ? openSync(launch.fd3File, 'r') : 'ignore';
    const binds = launch.bindSources.map((s) => openSync(s, constants.O_RDONLY | constants.O_NOFOLLOW));
    const [file, ...args] = argv ? [...argv, '--', ...COMMAND] : COMMAND;
    const { child, read } = spawnTimed(
      file,
      args,
      { cwd: work, stdio: ['ignore', 'ignore', 'inherit', seccomp, ...binds], detached: true },
      timesFile,
    );
    const code = await new Promise((resolve) => child.on('close', resolve));
    if (seccomp !== 'ignore') closeSync(seccomp);
    for (const fd of binds) closeSync(fd);
    if (code !== 0) throw new Error(`${file} ${args.join(' ')}: exit ${code}`);
    return read().cpu;
  };
  const names = Object.keys(variants);
  const cpu = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = [...names].sort(() => Math.random() - 0.5);
    for (const name of order) cpu[name].push(await run(variants[name]));
  }
  const quartiles = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    const at = (q) => sorted[Math.floor(q * (sorted.length - 1))];
    return [at(0.25), at(0.5), at(0.75)];
  };
  const bare = quartiles(cpu.bare)[1];
  const whole = quartiles(cpu['kimi-ts (all)'])[1];
  console.log(`${ROUNDS} rounds; kimi-ts's arguments: ${rest.join(' ')}`);
  console.log('variant'.padEnd(48), 'CPU median (p25–p75) ms', ' over bare', ' saved vs all');
  for (const name of names) {
    const [p25, mid, p75] = quartiles(cpu[name]);
    console.log(
      name.padEnd(48),
      `${mid.toFixed(2)} (${p25.toFixed(2)}–${p75.toFixed(2)})`.padEnd(23),
      (mid - bare).toFixed(2).padStart(10),
      name === 'bare' ? '' : (whole - mid).toFixed(2).padStart(13),
    );
  }
  state.sandbox.dispose();
} finally {
  rmSync(home, { recursive: true, force: true });
}
