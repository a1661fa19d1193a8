import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { formsThatDeleted as deletedBy } from '../support/deny-rule-forms.js';
import { git } from '../support/git.js';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24 (deny4): one more form of each of red4's findings (deny-rule-wrappers-code-runners,
 * deny-rule-git-push-plumbing), written for the fix: each got past the rule before it. A
 * `Shell(rm -rf*)` deny rule in print mode with --yolo; `Shell(git push*)` with --sandbox off.
 */

const cli = useScriptedCli();

it('a deny rule for rm -rf holds against other forms of the same findings', async () => {
  const forms = [
    // env's lone `-` is an option (-i), not the command.
    'env - rm -rf VICTIM',
    // a wrapper under -execdir.
    'find . -maxdepth 1 -name VICTIM -execdir env -i rm -rf {} +',
    // a shell or an interpreter whose script is its own input.
    "bash /dev/stdin <<< 'rm -rf VICTIM'",
    'python3 /dev/stdin <<< \'import shutil; shutil.rmtree("VICTIM")\'',
    // a start-up file that is the shell's own input.
    "env BASH_ENV=/dev/stdin bash -c true <<< 'rm -rf VICTIM'",
    // a code variable through env.
    "env GIT_SSH_COMMAND='rm -rf VICTIM;' git ls-remote ssh://h/r",
    // a script written by tee, then run.
    "echo 'rm -rf VICTIM' | tee s4 > /dev/null; bash s4",
  ];
  expect(await formsThatDeleted(forms)).toEqual([]);
});

const formsThatDeleted = (forms: readonly string[]) => deletedBy(cli, forms);

it('a deny rule for git push holds against git-send-pack by its exec-path program', async () => {
  const execPath = execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim();
  const forms = [`${execPath}/git-send-pack ../remote.git HEAD:refs/heads/b0`];
  const { sandbox } = await cli.setup(
    [
      { toolCalls: forms.map((command, i) => ({ id: `g${i}`, name: 'Shell', args: { command } })) },
      { text: 'done' },
    ],
    { extraToml: '[[permission.rules]]\ndecision = "deny"\npattern = "Shell(git push*)"\n' },
  );
  const remote = join(sandbox.root, 'remote.git');
  await mkdir(remote);
  git(remote, 'init', '-q', '--bare');
  git(sandbox.workDir, 'init', '-q');
  git(sandbox.workDir, 'commit', '-q', '--allow-empty', '-m', 'x');
  const result = await sandbox.run([
    '--print',
    '--yolo',
    '--sandbox',
    'off',
    '--output-format',
    'stream-json',
    '-p',
    'push',
  ]);
  expect(result.code).toBe(0);
  const refs = git(remote, 'for-each-ref', '--format=%(refname:short)').split('\n');
  expect(forms.filter((_, i) => refs.includes(`b${i}`))).toEqual([]);
});
