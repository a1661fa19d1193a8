import { existsSync, lstatSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { plantThenRunAgain, sandboxWithPostShellHook } from '../support/post-shell-hook.js';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24 (red team). A hook's script in the workspace is held read-only by itself; a name that is
 * missing at start, or a symlink, has its folder held (src/app/named-script-holds.ts): a command can
 * neither make nor replace the script. Where no folder can be held (a symlink at the top of the
 * workspace), a command could replace it, and it would run outside the sandbox at the next hook
 * event: the hook is skipped then, with a warning (src/app/hook-script-watch.ts). (A module planted
 * beside a Python hook script: named-scripts-held-across-sessions.test.ts.)
 */

const cli = useScriptedCli();

it("a command cannot create the script a person's hook names when it is missing at start (a global hook, a project without it)", async () => {
  const { server, sandbox } = await sandboxWithPostShellHook(cli, 'sh scripts/hook.sh');
  const marker = join(sandbox.root, 'hook-ran-created-script');
  await plantThenRunAgain(
    server,
    sandbox,
    `mkdir -p scripts && echo "touch '${marker}'" > scripts/hook.sh; echo finished`,
  );
  expect(existsSync(marker), 'the hook ran the created script outside the sandbox').toBe(false);
  // Its folder is held (made, empty, for the session): the script could not be written.
  expect(existsSync(join(sandbox.workDir, 'scripts'))).toBe(false);
});

for (const layout of ['in a folder', 'at the top of the workspace'] as const) {
  it(`a command cannot replace a hook's script that is a symlink ${layout} (only the file it leads to is held)`, async () => {
    const name = layout === 'in a folder' ? 'scripts/hook.sh' : 'hook.sh';
    const { server, sandbox } = await sandboxWithPostShellHook(cli, `sh ${name}`);
    const marker = join(sandbox.root, 'hook-ran-replaced-link');
    await mkdir(join(sandbox.workDir, 'scripts'));
    await mkdir(join(sandbox.workDir, 'shared'));
    await writeFile(join(sandbox.workDir, 'shared', 'format.sh'), 'exit 0\n');
    await symlink(
      layout === 'in a folder' ? '../shared/format.sh' : 'shared/format.sh',
      join(sandbox.workDir, name),
    );
    const result = await plantThenRunAgain(
      server,
      sandbox,
      `rm ${name} && echo "touch '${marker}'" > ${name}; echo finished`,
    );
    expect(existsSync(marker), 'the hook ran the replaced script outside the sandbox').toBe(false);
    if (layout === 'in a folder') {
      // The folder is held: the link is still there.
      expect(lstatSync(join(sandbox.workDir, name)).isSymbolicLink()).toBe(true);
    } else {
      // Nothing holds a name at the top of the workspace: the watch skips the hook.
      expect(result.stderr).toContain(`A hook is skipped: ${name}`);
    }
  });
}
