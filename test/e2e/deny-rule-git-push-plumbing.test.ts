import { execFileSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { git } from '../support/git.js';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24, "deny rules match a normalised form" (red team red4): a `Shell(git push*)` deny rule in
 * print mode (--yolo, --sandbox off, so the push can reach the remote) holds against git's global
 * options, but not against the same command by its program in git's exec path
 * (`/usr/lib/git-core/git-push`) nor the plumbing that pushes (`git send-pack`).
 */

const cli = useScriptedCli();

it('a deny rule for git push holds against git-push by its path and git send-pack', async () => {
  const execPath = execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim();
  const forms = [
    `${execPath}/git-push origin HEAD:refs/heads/b0`,
    'git send-pack ../remote.git HEAD:refs/heads/b1',
  ];
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
  git(sandbox.workDir, 'remote', 'add', 'origin', remote);
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
