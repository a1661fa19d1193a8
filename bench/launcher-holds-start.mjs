// What reading the hooks' and MCP servers' launchers costs at session start (src/app/launcher-holds.ts,
// the only path it runs on: once per session, not per decision or walk), for two builds alternated in
// one process: `node bench/launcher-holds-start.mjs BASELINE_DIST [OURS_DIST] [ROUNDS]`. CPU time per
// session's reading (process.cpuUsage), medians and spread; the first (cold) reading of each build
// is reported apart, as it loads what the reading needs (our build: the shell parser, for a line
// that is no plain one).
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [baseDist, oursDist = 'dist', roundsArg = '200'] = process.argv.slice(2);
const rounds = Number(roundsArg);
const root = realpathSync(mkdtempSync(join(tmpdir(), 'launcher-holds-bench-')));
const work = join(root, 'work');
mkdirSync(join(work, 'tools'), { recursive: true });
writeFileSync(
  join(work, 'package.json'),
  JSON.stringify({ scripts: { lint: 'eslint . && make check', pretest: 'true', test: 'node --test' } }),
);
writeFileSync(join(work, 'tools', 'package.json'), JSON.stringify({ scripts: { lint: 'true' } }));
writeFileSync(join(work, 'Makefile'), 'check:\n\ttrue\n');
writeFileSync(join(work, 'server.py'), '');
// A session's hooks and servers: plain lines (no tree-sitter), and one line that needs it.
const commands = ['npm run lint', 'make -s check', 'cd tools && npm test', 'python3 -X utf8 -m server'];
const shellLine = '(cd tools; npm run lint)';

async function load(dist) {
  const { launcherHolds } = await import(pathToFileURL(resolve(dist, 'app/launcher-holds.js')).href);
  const launches = (list) =>
    list.map((command) => ({ starter: command, cwd: work, words: command.split(' '), line: command }));
  return {
    plain: () => launcherHolds(launches(commands), root, [work]),
    shell: () => launcherHolds(launches([...commands, shellLine]), root, [work]),
  };
}

const cpu = async (fn) => {
  const start = process.cpuUsage();
  await fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};
const builds = { baseline: await load(baseDist), ours: await load(oursDist) };
const cold = {};
for (const [name, build] of Object.entries(builds)) cold[name] = await cpu(build.shell);
const times = { baseline: { plain: [], shell: [] }, ours: { plain: [], shell: [] } };
for (let i = 0; i < rounds; i++) {
  for (const name of i % 2 === 0 ? ['baseline', 'ours'] : ['ours', 'baseline']) {
    times[name].plain.push(await cpu(builds[name].plain));
    times[name].shell.push(await cpu(builds[name].shell));
  }
}
const quantile = (list, q) => [...list].sort((a, b) => a - b)[Math.floor(q * (list.length - 1))];
for (const name of ['baseline', 'ours']) {
  console.log(`${name}: first reading ${cold[name].toFixed(2)} ms CPU`);
  for (const kind of ['plain', 'shell']) {
    const list = times[name][kind];
    console.log(
      `  ${kind === 'plain' ? `${commands.length} plain hooks` : `the same + ${JSON.stringify(shellLine)}`}: median ${quantile(list, 0.5).toFixed(3)} ms CPU (p10 ${quantile(list, 0.1).toFixed(3)}, p90 ${quantile(list, 0.9).toFixed(3)}), ${rounds} rounds`,
    );
  }
}
rmSync(root, { recursive: true, force: true });
