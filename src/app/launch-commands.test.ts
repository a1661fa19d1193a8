import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { commandLineLaunches, execLaunches, type LaunchReading } from './launch-commands.js';

let work: string;
let home: string;

beforeEach(() => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'launch-commands-')));
  work = join(root, 'work');
  home = join(root, 'home');
  mkdirSync(work);
  mkdirSync(home);
});
afterEach(() => rmSync(join(work, '..'), { recursive: true, force: true }));

/** Each command as `folder: words`, the folder relative to the work dir. */
const shown = (reading: LaunchReading) =>
  reading.commands.map(
    ({ words, cwd }) => `${cwd === work ? '.' : cwd.slice(work.length + 1)}: ${words.join(' ')}`,
  );

it.each([
  ['npm run lint', ['.: npm run lint']],
  // Each wrapper's stage, then what it runs.
  ['timeout 60 npm run lint', ['.: timeout 60 npm run lint', '.: npm run lint']],
  ['nice -n 5 make -s', ['.: nice -n 5 make -s', '.: make -s']],
  // `env -C DIR`: what it runs runs there.
  ['env -C tools npm test', ['.: env -C tools npm test', 'tools: npm test']],
  ['env --chdir=tools CI=1 make', ['.: env --chdir=tools CI=1 make', 'tools: make']],
  // Every wrapper whose option moves what it runs, read as the policy reads it (folder-options.ts).
  ['env -iC tools make', ['.: env -iC tools make', 'tools: make']],
  ['sudo -D tools make', ['.: sudo -D tools make', 'tools: make']],
  ['sudo -u ci --chdir=tools make', ['.: sudo -u ci --chdir=tools make', 'tools: make']],
  ['nsenter --wd=tools make', ['.: nsenter --wd=tools make', 'tools: make']],
  ['unshare -w tools make', ['.: unshare -w tools make', 'tools: make']],
  [
    'systemd-run --working-directory=tools make',
    ['.: systemd-run --working-directory=tools make', 'tools: make'],
  ],
  // The last option counts, as each wrapper keeps the last; a wrapper's folder is relative to the one before.
  ['env -C a -C tools make', ['.: env -C a -C tools make', 'tools: make']],
  [
    'sudo -D tools env -C sub make',
    ['.: sudo -D tools env -C sub make', 'tools: env -C sub make', 'tools/sub: make'],
  ],
  // A shell string is read as the line it is.
  ["bash -c 'npm run lint'", ['.: bash -c npm run lint', '.: npm run lint']],
  // Order is not followed, as the policy does not: a `cd` in a subshell or one that fails leaves
  // the rest where it was, so every command may run in either folder.
  ['cd tools && make', ['.: cd tools', 'tools: cd tools', '.: make', 'tools: make']],
  [
    '(cd tools; make); npm test',
    ['.: cd tools', 'tools: cd tools', '.: make', 'tools: make', '.: npm test', 'tools: npm test'],
  ],
])('`%s` runs %j', async (line, expected) => {
  expect(shown(await commandLineLaunches(line, work, home))).toEqual(expected);
});

it('`cd` alone goes home, `cd ~/DIR` below it; `cd -P DIR` to DIR', async () => {
  const reading = await commandLineLaunches('cd; cd -P /opt/x; cd ~/proj; make', work, home);
  expect(reading.commands.filter(({ words }) => words[0] === 'make').map(({ cwd }) => cwd)).toEqual([
    work,
    home,
    '/opt/x',
    join(home, 'proj'),
  ]);
});

it('says what it cannot read: a program or a folder an expansion decides, a line that does not parse', async () => {
  expect((await commandLineLaunches('$RUNNER lint', work, home)).unsure).toEqual([
    { cwd: work, why: '`$RUNNER`, a program an expansion decides, runs' },
  ]);
  expect((await commandLineLaunches('cd "$PKG" && npm test', work, home)).unsure).toEqual([
    expect.objectContaining({ why: expect.stringContaining('changes to a folder an expansion decides') }),
  ]);
  expect((await commandLineLaunches('sudo -D "$PKG" make', work, home)).unsure).toEqual([
    { cwd: work, why: '`sudo` changes to a folder an expansion decides' },
  ]);
  expect((await commandLineLaunches('npm run lint && (', work, home)).unsure).toContainEqual(
    expect.objectContaining({ why: expect.stringContaining('does not read whole') }),
  );
  // An argument an expansion decides is the launcher's to judge, not this reading's.
  expect((await commandLineLaunches('echo "$X" >> log', work, home)).unsure).toEqual([]);
});

it("an MCP server's words run without a shell, their `sh -c` string with one", async () => {
  expect(shown(await execLaunches(['sh', '-c', 'cd srv && exec python3 -m server'], work, home))).toEqual([
    '.: sh -c cd srv && exec python3 -m server',
    '.: cd srv',
    'srv: cd srv',
    '.: exec python3 -m server',
    '.: python3 -m server',
    'srv: exec python3 -m server',
    'srv: python3 -m server',
  ]);
  // A word with `;` is one word: no shell splits it.
  expect(shown(await execLaunches(['node', 'a;make'], work, home))).toEqual(['.: node a;make']);
});
