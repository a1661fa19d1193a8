import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { formsThatDeleted } from '../support/deny-rule-forms.js';
import { plantThenRunAgain, sandboxWithPostShellHook } from '../support/post-shell-hook.js';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24 (holes5, 2): what make runs beyond its makefile's recipes. Its command line's `SHELL=`,
 * `.SHELLFLAGS=` and any variable whose value a recipe expands, and `MAKEFLAGS`/`MAKEFILES` from the
 * environment, run code no deny rule read (a `Shell(rm -rf*)` rule in print mode with --yolo); a
 * hook's `make` reads the files its Makefile includes as it reads the Makefile, so a command that
 * rewrote an included file ran its code outside the sandbox at the next hook.
 */

const cli = useScriptedCli();

const MAKEFILE = 'all:\n\t@$(CC) --version > /dev/null\n';

it('a deny rule for rm -rf holds against code given to make in its variables', async () => {
  const forms = [
    // the shell make runs its recipes with, and the flags it gives it.
    'make SHELL=/bin/sh \'.SHELLFLAGS=-c "rm -rf VICTIM"\' all',
    // a variable the recipe expands: its value is part of the recipe's command line.
    "make 'CC=rm -rf VICTIM; true' all",
    // make's flags from the environment: a variable set as if on its command line.
    "MAKEFLAGS='CC=rm\\ -rf\\ VICTIM;true' make all",
    // more makefiles from the environment.
    "printf 'all:\\n\\trm -rf VICTIM\\n' > /tmp/holes5-VICTIM.mk; MAKEFILES=/tmp/holes5-VICTIM.mk make -f /dev/null all",
  ];
  expect(
    await formsThatDeleted(cli, forms, (workDir) => writeFile(join(workDir, 'Makefile'), MAKEFILE)),
  ).toEqual([]);
});

it("make: a file the hook's Makefile includes is held as the Makefile is", async () => {
  const { server, sandbox } = await sandboxWithPostShellHook(cli, 'make -s lint');
  const marker = join(sandbox.root, 'hook-ran-planted-code');
  await mkdir(join(sandbox.workDir, 'mk'));
  await writeFile(join(sandbox.workDir, 'Makefile'), 'include mk/rules.mk\n');
  await writeFile(join(sandbox.workDir, 'mk', 'rules.mk'), 'lint:\n\t@true\n');
  await plantThenRunAgain(
    server,
    sandbox,
    `printf 'lint:\\n\\t@touch ${marker}\\n' > mk/rules.mk; echo finished`,
  );
  expect(existsSync(marker), 'the planted command ran outside the sandbox').toBe(false);
});
