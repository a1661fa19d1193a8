// The policy's decision for git commands in a repository whose history holds a token (removed
// since, as kimi-ts's own test fixtures are): `git diff` (only the index's and work tree's files),
// `git log --oneline` (messages), `git status` (nothing stored), `git show HEAD~1` (the history);
// and the command lines red4's findings added to the store scan (hist2): a checkout of another
// commit followed on the line, a clone, a program naming .git/objects, GIT_DIR exported earlier,
// and a line with no git, for the cost elsewhere.
// Two builds in one process, alternating rounds; main-thread CPU per decision, medians.
// Usage: node bench/git-store-reads.mjs [baseline-dist] [this-dist]
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [baseDist = '/work/wt-b6/dist', thisDist = 'dist'] = process.argv.slice(2);
const ROUNDS = 25;
const CALLS = 200;
const COMMANDS = [
  'git diff',
  'git diff --stat -- src',
  'git log --oneline -5',
  'git status',
  'git show HEAD~1',
  'git checkout -b topic && npm test',
  'git checkout -b topic',
  'git clone -q . /tmp/c',
  'python3 -c "print(open(\'.git/objects/ab/cd\').read())"',
  'export GIT_DIR=.git; git log --oneline -5',
  'npm test && ls src',
];

function git(cwd, ...args) {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, stdio: 'ignore' });
}

async function policyOf(dist, work, root) {
  const { RuleSet, SessionPolicy } = await import(pathToFileURL(resolve(dist, 'policy/index.js')).href);
  return new SessionPolicy({
    workDir: work,
    additionalDirs: [],
    homes: { userHome: root, kimiHome: join(root, '.kimi-ts') },
    rules: new RuleSet([]),
    modes: { yolo: true, afk: false, runtimeAfk: false },
    sessionApprovals: { isSessionApproved: () => false },
  });
}

function request(work, command) {
  return {
    toolName: 'Shell',
    effects: [{ kind: 'exec', command, cwd: work, background: false }],
    question: { action: 'run command', description: command },
  };
}

const root = await mkdtemp(join(tmpdir(), 'kimi-ts-bench-git-reads-'));
try {
  const work = join(root, 'work');
  await mkdir(join(work, 'src'), { recursive: true });
  git(work, 'init', '-q');
  for (let i = 0; i < 200; i++)
    await writeFile(join(work, 'src', `f${i}.ts`), `export const x${i} = ${i};\n`);
  await writeFile(join(work, 'notes.txt'), `push with ghp_${'aB3d'.repeat(9)}\n`);
  git(work, 'add', '.');
  git(work, 'commit', '-qm', 'one');
  await writeFile(join(work, 'notes.txt'), 'from the vault\n');
  git(work, 'commit', '-qam', 'two');
  await writeFile(join(work, 'src', 'f1.ts'), 'changed\n');
  const builds = {
    baseline: await policyOf(baseDist, work, root),
    this: await policyOf(thisDist, work, root),
  };
  const samples = {};
  for (const [name, policy] of Object.entries(builds))
    for (const command of COMMANDS) {
      const decision = await policy.decide(request(work, command)); // warm-up: parser, store scan
      console.log(
        `${name.padEnd(8)} ${command.padEnd(44)} -> ${decision.kind ?? decision.decision ?? JSON.stringify(decision).slice(0, 60)}`,
      );
      samples[`${name}|${command}`] = [];
    }
  for (let round = 0; round < ROUNDS; round++)
    for (const command of COMMANDS)
      for (const [name, policy] of round % 2 ? Object.entries(builds) : Object.entries(builds).reverse()) {
        const start = process.cpuUsage();
        for (let i = 0; i < CALLS; i++) await policy.decide(request(work, command));
        const used = process.cpuUsage(start);
        samples[`${name}|${command}`].push((used.user + used.system) / CALLS);
      }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const q = (xs, p) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)];
  for (const command of COMMANDS) {
    const line = Object.keys(builds).map((name) => {
      const xs = samples[`${name}|${command}`];
      return `${name} ${median(xs).toFixed(1)} µs (p25 ${q(xs, 0.25).toFixed(1)}, p75 ${q(xs, 0.75).toFixed(1)})`;
    });
    console.log(`${command.padEnd(44)} ${line.join('   ')}`);
  }
} finally {
  await rm(root, { recursive: true, force: true });
}
