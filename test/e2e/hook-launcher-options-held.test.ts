import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { plantThenRunAgain, sandboxWithPostShellHook } from '../support/post-shell-hook.js';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24, what a hook's launcher reads is held (red team red4): launcher-reads.ts reads the
 * launcher's words without the options that take a value or name another folder, so a hook of the
 * person's config (run outside the sandbox after each Shell call) started with one of them, after a
 * `cd`, in a shell string or under a wrapper, or by a virtual environment's python, has the wrong
 * file held, or none, and nothing is said at start: a print-mode command rewrites what really runs.
 */

const cli = useScriptedCli();

async function hookRunsPlanted(
  hookCommand: string,
  plant: Record<string, string>,
  attack: (marker: string) => string,
): Promise<void> {
  const { server, sandbox } = await sandboxWithPostShellHook(cli, hookCommand);
  const marker = join(sandbox.root, 'hook-ran-planted-code');
  for (const [name, content] of Object.entries(plant)) {
    await mkdir(join(sandbox.workDir, name, '..'), { recursive: true });
    await writeFile(join(sandbox.workDir, name), content);
  }
  await plantThenRunAgain(server, sandbox, `${attack(marker)}; echo finished`);
  expect(existsSync(marker), 'the planted command ran outside the sandbox').toBe(false);
}

const LINT_TRUE = '{"scripts":{"lint":"true"}}';
const lintTouches = (marker: string, file: string) =>
  `printf '{"scripts":{"lint":"touch ${marker}"}}' > ${file}`;

// `npm --prefix tools run lint` runs tools/package.json's script; `--prefix` hides `run` from the reader.
it('npm --prefix DIR run lint: the package.json of DIR is held', async () => {
  await hookRunsPlanted('npm --prefix tools run --silent lint', { 'tools/package.json': LINT_TRUE }, (m) =>
    lintTouches(m, 'tools/package.json'),
  );
});

// `npm run lint --prefix tools`: the same, the option after the script's name.
it('npm run lint --prefix DIR: the package.json of DIR is held', async () => {
  await hookRunsPlanted('npm run --silent lint --prefix tools', { 'tools/package.json': LINT_TRUE }, (m) =>
    lintTouches(m, 'tools/package.json'),
  );
});

// `npm --loglevel silent run lint`: an option's value taken for the subcommand.
it('npm --loglevel silent run lint: the package.json is held', async () => {
  await hookRunsPlanted('npm --loglevel silent run lint', { 'package.json': LINT_TRUE }, (m) =>
    lintTouches(m, 'package.json'),
  );
});

// `python3 -X utf8 -m checker`: `-X` takes a value, read as the script; nothing is held.
it('python3 -X utf8 -m checker: checker.py is held', async () => {
  await hookRunsPlanted(
    'python3 -X utf8 -m checker',
    { 'checker.py': 'pass\n' },
    (m) => `printf 'open("${m}", "w")\\n' > checker.py`,
  );
});

// `python3 -W ignore -m checker`: the same with a warning filter.
it('python3 -W ignore -m checker: checker.py is held', async () => {
  await hookRunsPlanted(
    'python3 -W ignore -m checker',
    { 'checker.py': 'pass\n' },
    (m) => `printf 'open("${m}", "w")\\n' > checker.py`,
  );
});

// `make --directory=tools lint` and `make -Ctools lint` read tools/Makefile; the reader knows `-C DIR` only.
it('make --directory=DIR: the Makefile of DIR is held', async () => {
  await hookRunsPlanted(
    'make -s --directory=tools lint',
    { 'tools/Makefile': 'lint:\n\t@true\n' },
    (m) => `printf 'lint:\\n\\t@touch ${m}\\n' > tools/Makefile`,
  );
});

it('make -CDIR: the Makefile of DIR is held', async () => {
  await hookRunsPlanted(
    'make -s -Ctools lint',
    { 'tools/Makefile': 'lint:\n\t@true\n' },
    (m) => `printf 'lint:\\n\\t@touch ${m}\\n' > tools/Makefile`,
  );
});

// A hook run by the project's virtual environment (`.venv/bin/python scripts/check.py`): the script
// and `.venv/bin` are held, site-packages is not, and Python runs every `.pth` file there at start.
it('.venv/bin/python SCRIPT: a .pth file planted in the virtual environment does not run', async () => {
  const { server, sandbox } = await sandboxWithPostShellHook(cli, '.venv/bin/python scripts/check.py');
  const marker = join(sandbox.root, 'hook-ran-planted-code');
  execFileSync('python3', ['-m', 'venv', '--without-pip', join(sandbox.workDir, '.venv')]);
  await mkdir(join(sandbox.workDir, 'scripts'));
  await writeFile(join(sandbox.workDir, 'scripts', 'check.py'), 'pass\n');
  await plantThenRunAgain(
    server,
    sandbox,
    `for d in .venv/lib/python3*/site-packages; do echo 'import os; open("${marker}", "w")' > $d/zz.pth; done; echo finished`,
  );
  expect(existsSync(marker), 'the planted command ran outside the sandbox').toBe(false);
});

// The hook's command is read word by word: a `cd` first (a monorepo's package), a subshell, a shell
// string, npm's workspace option, or a wrapper (`timeout`) leaves the package.json that runs unheld.
it.each([
  ['cd tools && npm run --silent lint', 'tools/package.json'],
  ['(cd tools; npm run --silent lint)', 'tools/package.json'],
  ["bash -c 'npm run --silent lint'", 'package.json'],
  ["sh -c 'npm run --silent lint'", 'package.json'],
  ['npm run --silent lint --workspace=tools', 'tools/package.json'],
  ['npm --silent -w tools run lint', 'tools/package.json'],
  ['timeout 60 npm run --silent lint', 'package.json'],
])('a hook `%s`: the package.json whose script runs is held', async (hook, file) => {
  const plant: Record<string, string> = { 'package.json': LINT_TRUE };
  if (file !== 'package.json') {
    plant['package.json'] = '{"name":"root","workspaces":["tools"]}';
    plant[file] = '{"name":"tools","scripts":{"lint":"true"}}';
  }
  await hookRunsPlanted(hook, plant, (m) => lintTouches(m, file));
});
