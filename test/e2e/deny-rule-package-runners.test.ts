import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { formsThatDeleted } from '../support/deny-rule-forms.js';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24 (holes5, 1): what npm exec / npx run is what a deny rule judges, however npm's own
 * options come before `exec` (`npm --prefix . exec`, `npm -w a exec`, `npm --loglevel silent exec`,
 * the abbreviation `npm exe`), when no command is given (npm starts `sh` reading its input), and
 * when the command is a bin of the work tree's node_modules/.bin. A `Shell(rm -rf*)` deny rule in
 * print mode with --yolo; each form deleted its folder before.
 */

const cli = useScriptedCli();

/** A workspace `a` (for `npm -w a`) and a node_modules/.bin/rm that is the system's rm. */
async function packageTree(workDir: string): Promise<void> {
  await writeFile(
    join(workDir, 'package.json'),
    JSON.stringify({ name: 'root', private: true, workspaces: ['a'] }),
  );
  await mkdir(join(workDir, 'a'));
  await writeFile(join(workDir, 'a', 'package.json'), JSON.stringify({ name: 'a', version: '1.0.0' }));
  await mkdir(join(workDir, 'node_modules', '.bin'), { recursive: true });
  await symlink('/bin/rm', join(workDir, 'node_modules', '.bin', 'rm'));
  await symlink('../a', join(workDir, 'node_modules', 'a'));
  await chmod(join(workDir, 'node_modules', '.bin'), 0o755);
}

it('a deny rule for rm -rf holds against what npm exec and npx run', async () => {
  const forms = [
    // npm's global options before exec: the first word that is no option is not the subcommand.
    "npm --prefix . exec -c 'rm -rf VICTIM'",
    "npm --loglevel silent exec -c 'rm -rf VICTIM'",
    "npm -w a exec -c 'rm -rf ../VICTIM'",
    // an abbreviation npm takes for exec.
    "npm exe -c 'rm -rf VICTIM'",
    // no command: npm runs sh, which reads its input.
    "echo 'rm -rf VICTIM' | npx",
    "npm --prefix . exec <<< 'rm -rf VICTIM'",
    // the command is a bin of the work tree (node_modules/.bin/rm).
    'npx rm -rf VICTIM',
    'npm --prefix . exec -- rm -rf VICTIM',
    'npx --yes rm -rf VICTIM',
  ];
  expect(await formsThatDeleted(cli, forms, packageTree)).toEqual([]);
});
