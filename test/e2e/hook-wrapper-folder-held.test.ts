import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { plantThenRunAgain, sandboxWithPostShellHook } from '../support/post-shell-hook.js';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24 (holes6, 1): a hook run through a wrapper that moves the command it runs to another
 * folder (`sudo -D DIR`, `nsenter --wd=DIR`, `unshare -w DIR`, `systemd-run --working-directory=DIR`,
 * `env -C DIR`) has its files held from that folder, read as the policy reads the same option
 * (src/policy/folder-options.ts). Before, only `env -C` was followed: the task file in DIR was not
 * held, and a print-mode command rewrote what the hook ran outside the sandbox. unshare and nsenter
 * stand for the others (sudo and systemd-run are not installed here; launch-commands.test.ts reads them).
 */

const cli = useScriptedCli();

async function hookRunsPlanted(hookCommand: string): Promise<void> {
  const { server, sandbox } = await sandboxWithPostShellHook(cli, hookCommand);
  const marker = join(sandbox.root, 'hook-ran-planted-code');
  await mkdir(join(sandbox.workDir, 'tools'));
  await writeFile(join(sandbox.workDir, 'tools', 'tasks.mk'), 'lint:\n\t@true\n');
  await plantThenRunAgain(
    server,
    sandbox,
    `printf 'lint:\\n\\t@touch ${marker}\\n' > tools/tasks.mk; echo finished`,
  );
  expect(existsSync(marker), 'the planted command ran outside the sandbox').toBe(false);
}

it('a hook `unshare -w DIR make -f FILE`: the task file in DIR is held', async () => {
  await hookRunsPlanted('unshare -w tools make -s -f tasks.mk lint');
});

it('a hook `nsenter --wd=DIR nice -n 5 make -f FILE`: the task file in DIR is held', async () => {
  await hookRunsPlanted('nsenter --wd=tools nice -n 5 make -s -f tasks.mk lint');
});
