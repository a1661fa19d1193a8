import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { launcherReadsOfCommand } from './launcher-reads.js';

let work: string;
let home: string;

beforeEach(() => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'launcher-reads-')));
  work = join(root, 'work');
  home = join(root, 'home');
  mkdirSync(work);
  mkdirSync(home);
});
afterEach(() => rmSync(join(work, '..'), { recursive: true, force: true }));

const reads = (command: string, cwd = work) => launcherReadsOfCommand(command, cwd, home);
const at = (...names: string[]) => names.map((name) => join(work, name));
const packageJson = (scripts: Record<string, string>) =>
  writeFileSync(join(work, 'package.json'), JSON.stringify({ scripts }));

it.each([
  ['npm run --silent lint', ['package.json', '.npmrc']],
  ['npm test', ['package.json', '.npmrc']],
  ['npm t', ['package.json', '.npmrc']],
  ['npm start', ['package.json', '.npmrc']],
  ['npm run-script lint', ['package.json', '.npmrc']],
  ['pnpm run lint', ['package.json', '.npmrc']],
  ['pnpm lint', ['package.json', '.npmrc']],
  ['yarn lint', ['package.json', '.yarnrc.yml', '.yarnrc']],
  ['bun run lint', ['package.json', 'bunfig.toml']],
  ['node --run lint', ['package.json', '.npmrc']],
  ['env CI=1 npm run lint && echo done', ['package.json', '.npmrc']],
])('`%s` reads package.json and the manager config', async (command, files) => {
  expect((await reads(command)).files).toEqual(at(...files));
});

it('reads nothing for a package manager command that runs none of the project scripts', async () => {
  for (const command of ['npm install', 'pnpm add zod', 'yarn', 'npm ci', 'bun install']) {
    expect(await reads(command), command).toEqual({ files: [], folders: [], notHeld: [] });
  }
});

it('finds the nearest package.json up from the working folder, as npm does', async () => {
  packageJson({ lint: 'true' });
  mkdirSync(join(work, 'sub'));
  expect((await reads('npm run lint', join(work, 'sub'))).files).toEqual(at('package.json', '.npmrc'));
});

it("follows a script's pre and post scripts, the scripts it runs and the launchers it starts", async () => {
  packageJson({ prelint: './scripts/pre.sh', lint: 'node scripts/lint.mjs && make check', postlint: 'true' });
  expect((await reads('npm run lint')).files).toEqual(
    at('package.json', '.npmrc', 'scripts/pre.sh', 'scripts/lint.mjs', 'GNUmakefile', 'makefile', 'Makefile'),
  );
});

it("holds the file a script's node_modules binary leads to, and says its package is not held", async () => {
  mkdirSync(join(work, 'node_modules', 'eslint', 'bin'), { recursive: true });
  mkdirSync(join(work, 'node_modules', '.bin'));
  writeFileSync(join(work, 'node_modules', 'eslint', 'bin', 'eslint.js'), '');
  symlinkSync('../eslint/bin/eslint.js', join(work, 'node_modules', '.bin', 'eslint'));
  packageJson({ lint: 'eslint .' });
  const lint = await reads('npm run lint');
  expect(lint.files).toContain(join(work, 'node_modules', 'eslint', 'bin', 'eslint.js'));
  expect(lint.notHeld.map(({ tree }) => tree)).toEqual(at('node_modules'));
  // npx of that binary: the same.
  expect(await reads('npx eslint --fix')).toEqual({
    files: at('node_modules/eslint/bin/eslint.js'),
    folders: [],
    notHeld: [expect.objectContaining({ tree: join(work, 'node_modules') })],
  });
});

it('names the node_modules/.bin entry a command could make where npx would otherwise fetch', async () => {
  expect((await reads('npx prettier --write .')).files).toEqual(at('node_modules/.bin/prettier'));
  expect((await reads('npx prettier@3 --write .')).files).toEqual([]);
});

it('stops following scripts that run each other', async () => {
  packageJson({ a: 'npm run b', b: 'npm run a' });
  expect((await reads('npm run a')).files).toEqual(at('package.json', '.npmrc'));
});

it.each([
  ['make', ['GNUmakefile', 'makefile', 'Makefile']],
  ['make -f build.mk all', ['build.mk']],
  ['make --file=build.mk', ['build.mk']],
  ['make -C sub lint', ['sub/GNUmakefile', 'sub/makefile', 'sub/Makefile']],
  ['just lint', ['justfile', 'Justfile', '.justfile']],
  ['just --justfile tasks.just', ['tasks.just']],
  ['rake lint', ['Rakefile', 'rakefile', 'Rakefile.rb', 'rakefile.rb']],
])('`%s` reads its task file', async (command, files) => {
  expect(await reads(command)).toEqual({ files: at(...files), folders: [], notHeld: [] });
});

it("holds rake's rakelib folder where there is one", async () => {
  mkdirSync(join(work, 'rakelib'));
  expect((await reads('rake')).folders).toEqual(at('rakelib'));
});

it('`python3 -m X` reads X.py and the package X/ of its working folder, and says its import path is not held', async () => {
  writeFileSync(join(work, 'server.py'), 'pass\n');
  const server = await reads('python3 -u -m server --stdio');
  expect(server.files).toEqual(at('server.py'));
  // Made empty where missing: a package X/ would run before X.py.
  expect(server.folders).toEqual(at('server'));
  expect(server.notHeld).toEqual([expect.objectContaining({ tree: work })]);
  expect((await reads('python -mpkg.cli')).files).toEqual(at('pkg.py'));
  // No such module here (an installed one): no folder made, the name a command could add watched.
  expect(await reads('python3 -m pytest')).toMatchObject({ files: at('pytest.py'), folders: [] });
  // A script or -c code: no module.
  expect((await reads('python3 -c "import x" -m server')).files).toEqual([]);
  expect((await reads('python3 tool.py -m server')).files).toEqual([]);
});

it('`uv run` and `poetry run` read pyproject.toml and the lock file, and what they start', async () => {
  writeFileSync(join(work, 'server.py'), '');
  const uv = await reads('uv run --frozen python -m server');
  expect(uv.files).toEqual(at('pyproject.toml', 'uv.lock', 'server.py'));
  expect(uv.notHeld.map(({ tree }) => tree)).toEqual([join(work, '.venv'), work]);
  // The project's folder given by option.
  mkdirSync(join(work, 'mcp'));
  expect((await reads('uv run --directory mcp --with httpx server.py')).files).toEqual(
    at('mcp/pyproject.toml', 'mcp/uv.lock'),
  );
  expect((await reads('uv run --directory=mcp python -m tool')).files).toEqual(
    at('mcp/pyproject.toml', 'mcp/uv.lock', 'mcp/tool.py'),
  );
  // poetry's environment lies in its cache unless the project keeps a .venv.
  expect(await reads('poetry run pytest')).toEqual({
    files: at('pyproject.toml', 'poetry.lock'),
    folders: [],
    notHeld: [],
  });
  mkdirSync(join(work, '.venv'));
  expect((await reads('poetry run pytest')).notHeld.map(({ tree }) => tree)).toEqual(at('.venv'));
});

it('`cargo run` and `go run` hold nothing and say the source they build is not held', async () => {
  for (const command of ['cargo run --release', 'go run .', 'go run ./cmd/server']) {
    expect(await reads(command), command).toEqual({
      files: [],
      folders: [],
      notHeld: [expect.objectContaining({ tree: work })],
    });
  }
  expect((await reads('go run golang.org/x/tools/gopls@latest')).notHeld).toEqual([]);
  expect((await reads('cargo build')).notHeld).toEqual([]);
});

it('`node X` and `bun X.ts` name their file: no launcher read', async () => {
  writeFileSync(join(work, 'x.ts'), '');
  expect(await reads('node server.mjs')).toEqual({ files: [], folders: [], notHeld: [] });
  expect(await reads('bun x.ts')).toEqual({ files: [], folders: [], notHeld: [] });
  // A folder of that name is no file bun runs: a script.
  mkdirSync(join(work, 'lint'));
  expect((await reads('bun lint')).files).toEqual(at('package.json', 'bunfig.toml'));
});

/** A package in `folder` of the work dir, with `scripts`. */
const packageAt = (folder: string, scripts: Record<string, string>) => {
  mkdirSync(join(work, folder), { recursive: true });
  writeFileSync(join(work, folder, 'package.json'), JSON.stringify({ name: folder, scripts }));
};

it.each([
  ['npm --prefix tools run lint', ['tools/package.json', 'tools/.npmrc']],
  ['npm run lint --prefix=tools', ['tools/package.json', 'tools/.npmrc']],
  ['npm --loglevel silent -C tools test', ['tools/package.json', 'tools/.npmrc']],
  // A workspace: its package.json, and the root's with its config (npm reads both).
  ['npm -w tools run lint', ['package.json', '.npmrc', 'tools/package.json', 'tools/.npmrc']],
  ['npm run lint --workspace=tools', ['package.json', '.npmrc', 'tools/package.json', 'tools/.npmrc']],
  ['pnpm --filter ./tools lint', ['package.json', '.npmrc', 'tools/package.json', 'tools/.npmrc']],
  ['pnpm -C tools lint', ['tools/package.json', 'tools/.npmrc']],
  ['yarn --cwd tools lint', ['tools/package.json', 'tools/.yarnrc.yml', 'tools/.yarnrc']],
  [
    'yarn workspace tools lint',
    ['package.json', '.yarnrc.yml', '.yarnrc', 'tools/package.json', 'tools/.yarnrc.yml', 'tools/.yarnrc'],
  ],
  ['bun --cwd tools run lint', ['tools/package.json', 'tools/bunfig.toml']],
  ['npm --userconfig ci.npmrc run lint', ['ci.npmrc', 'package.json', '.npmrc']],
])('`%s` reads the package.json of the folder its options name', async (command, files) => {
  packageJson({});
  packageAt('tools', { lint: 'true' });
  expect((await reads(command)).files).toEqual(at(...files));
});

it('says at start what it cannot read: a workspace by package name, every workspace, an option it does not know', async () => {
  packageJson({ lint: 'true' });
  for (const command of [
    'npm -w @acme/tools run lint',
    'npm run lint --workspaces',
    'pnpm -r lint',
    'pnpm --filter @acme/tools lint',
    'npm --foo bar run lint',
    'npm --pref=tools run lint',
    'make -Z lint',
    'python3 --frobnicate -m checker',
    'npm run "$SCRIPT"',
  ]) {
    expect((await reads(command)).notHeld, command).toEqual([
      {
        tree: work,
        why: expect.stringMatching(
          /^kimi-ts cannot tell what it runs \(`(npm|pnpm|make|python3)`: .*\), so the files it reads are not held$/,
        ),
      },
    ]);
  }
});

it('reads a hook command as the shell does: a `cd`, a subshell, a shell string, a wrapper', async () => {
  packageAt('tools', { lint: 'true' });
  for (const command of [
    'cd tools && npm run lint',
    '(cd tools; npm run lint)',
    "bash -c 'cd tools && npm run lint'",
    'timeout 60 env -C tools npm run lint',
    'cd tools; nice -n 5 npm run lint',
  ]) {
    expect((await reads(command)).files, command).toContain(join(work, 'tools', 'package.json'));
  }
  // A package script is a command line too: its `cd` followed, its launcher's options read.
  packageJson({ lint: 'cd tools && make -s -f tasks.mk' });
  expect((await reads('npm run lint')).files).toContain(join(work, 'tools', 'tasks.mk'));
});

it('`make -C a -C b` runs in a/b, a `-f` file named from there', async () => {
  expect((await reads('make -C a -Cb -f x.mk')).files).toEqual(at('a/b/x.mk'));
});

it('`python3 -X utf8 -m checker` runs checker.py; `uv --directory DIR run` the project in DIR', async () => {
  writeFileSync(join(work, 'checker.py'), '');
  expect((await reads('python3 -X utf8 -W ignore -m checker')).files).toEqual(at('checker.py'));
  expect((await reads('uv --directory mcp run --frozen python -m tool')).files).toEqual(
    at('mcp/pyproject.toml', 'mcp/uv.lock', 'mcp/tool.py'),
  );
});

it("a virtual environment's interpreter: its site-packages and pyvenv.cfg held, a .pth file's folder said", async () => {
  const sitePackages = join(work, '.venv', 'lib', 'python3.11', 'site-packages');
  mkdirSync(sitePackages, { recursive: true });
  mkdirSync(join(work, '.venv', 'bin'));
  mkdirSync(join(work, 'src'));
  writeFileSync(join(work, '.venv', 'pyvenv.cfg'), 'home = /usr/bin\n');
  // An editable install of the project: its source on the import path.
  writeFileSync(join(sitePackages, '_project.pth'), `# editable\n${join(work, 'src')}\nimport os\n`);
  const venv = await reads('.venv/bin/python scripts/check.py');
  expect(venv.files).toEqual(at('.venv/pyvenv.cfg'));
  expect(venv.folders).toEqual([sitePackages]);
  expect(venv.notHeld).toEqual([expect.objectContaining({ tree: join(work, 'src') })]);
  // `-S`: no site, no .pth files; a python on PATH is no environment's.
  expect((await reads('.venv/bin/python -S scripts/check.py')).folders).toEqual([]);
  expect((await reads('python3 scripts/check.py')).folders).toEqual([]);
});

it("pnpm, yarn and bun pass what follows the script's name to it: no option of theirs", async () => {
  packageJson({ lint: 'true' });
  for (const command of [
    'pnpm lint --fix',
    'yarn run lint --fix',
    'bun run lint --watch-all',
    'pnpm exec eslint --fix',
  ]) {
    expect((await reads(command)).notHeld, command).toEqual([]);
  }
  expect((await reads('pnpm lint --fix')).files).toEqual(at('package.json', '.npmrc'));
  // npm reads its options wherever they are.
  expect((await reads('npm run lint --fix')).notHeld).toHaveLength(1);
});

it('a bare python the line finds in an environment (activated, or its bin put first on PATH): its site-packages held', async () => {
  const sitePackages = join(work, '.venv', 'lib', 'python3.11', 'site-packages');
  mkdirSync(sitePackages, { recursive: true });
  mkdirSync(join(work, '.venv', 'bin'));
  writeFileSync(join(work, '.venv', 'bin', 'python'), '');
  writeFileSync(join(work, '.venv', 'pyvenv.cfg'), 'home = /usr/bin\n');
  for (const line of [
    'source .venv/bin/activate && python scripts/check.py',
    '. .venv/bin/activate; python scripts/check.py',
    'PATH=.venv/bin:$PATH python scripts/check.py',
    'export PATH="$PWD/x:.venv/bin:$PATH"; python scripts/check.py',
    `PATH=${join(work, '.venv', 'bin')} python scripts/check.py`,
  ]) {
    const venv = await reads(line);
    expect(venv.folders, line).toEqual([sitePackages]);
    expect(venv.files, line).toContain(join(work, '.venv', 'pyvenv.cfg'));
  }
  // A python the environment does not have, and a PATH of other folders: none of its.
  expect((await reads('. .venv/bin/activate && python3 scripts/check.py')).folders).toEqual([]);
  expect((await reads('PATH=/usr/bin:$PATH python scripts/check.py')).folders).toEqual([]);
});
