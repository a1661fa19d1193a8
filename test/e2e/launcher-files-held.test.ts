import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { plantThenRunAgain, sandboxWithPostShellHook } from '../support/post-shell-hook.js';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24: what a hook's launcher reads to decide what runs is held like a script it names
 * (src/app/launcher-reads.ts): a command can neither rewrite the Makefile `make lint` runs, nor add
 * the GNUmakefile make would read before it, nor the package `python3 -m` would run before server.py.
 */

const cli = useScriptedCli();

it('a command cannot change the Makefile a hook runs by `make`, nor add a GNUmakefile before it', async () => {
  const { server, sandbox } = await sandboxWithPostShellHook(cli, 'make --silent lint');
  const marker = join(sandbox.root, 'hook-ran-planted-code');
  await writeFile(join(sandbox.workDir, 'Makefile'), 'lint:\n\t@true\n');
  const result = await plantThenRunAgain(
    server,
    sandbox,
    `printf 'lint:\\n\\ttouch ${marker}\\n' > Makefile; printf 'lint:\\n\\ttouch ${marker}\\n' > GNUmakefile; echo finished`,
  );
  expect(existsSync(marker), 'the planted command ran outside the sandbox').toBe(false);
  // The Makefile is held; the GNUmakefile could be made, and skips the hook.
  expect(result.stderr).toContain(
    'GNUmakefile, a file its launcher reads, did not exist when the session started',
  );
});

it('a command can neither rewrite the module a hook runs by `python3 -m`, nor add a package in its place', async () => {
  const { server, sandbox } = await sandboxWithPostShellHook(cli, 'python3 -m check');
  const marker = join(sandbox.root, 'hook-ran-planted-code');
  await writeFile(join(sandbox.workDir, 'check.py'), 'pass\n');
  await plantThenRunAgain(
    server,
    sandbox,
    `printf 'open("${marker}", "w")\\n' > check.py; mkdir -p check; printf 'open("${marker}", "w")\\n' > check/__main__.py; echo finished`,
  );
  expect(existsSync(marker), 'the planted command ran outside the sandbox').toBe(false);
  // The folder made for the session is gone again, empty.
  expect(existsSync(join(sandbox.workDir, 'check'))).toBe(false);
});
