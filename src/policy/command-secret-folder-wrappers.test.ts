import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandSecretReason } from './command-secret-paths.js';
import { parseShellCommand } from './shell-command.js';

/**
 * Wrappers that change the folder the command they run starts in (holes5, 3): the command's
 * relative words are judged from there, as after a `cd`. Files secret only by where they lie
 * (`~/.kube/config`, a `.git/config` holding a token) show the folder was followed.
 */

let root: string;
let work: string;
let homes: { userHome: string; kimiHome: string };

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'cmd-secret-folders-'));
  work = join(root, 'work');
  const home = join(root, 'home');
  homes = { userHome: home, kimiHome: join(home, '.kimi-ts') };
  await mkdir(join(home, '.kube'), { recursive: true });
  await writeFile(join(home, '.kube', 'config'), 'apiVersion: v1');
  for (const dir of ['src', '.git']) await mkdir(join(work, dir), { recursive: true });
  await writeFile(join(work, '.git', 'config'), '[remote "o"]\n\turl = https://me:tok3n@example.com/r.git\n');
  await writeFile(join(work, 'src', 'config'), 'x');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function reason(command: string): Promise<string | null> {
  const parsed = await parseShellCommand(command);
  return commandSecretReason(parsed.parts, work, homes, undefined, parsed.loopWords);
}

describe('commandSecretReason: the folder a wrapper moves its command to', () => {
  it.each([
    'env -iC .git cat config',
    'env -vC.git cat config',
    'env --chd .git cat config',
    'env --chdir .git cat config',
    'sudo -D .git cat config',
    'sudo --chdir=.git cat config',
    'sudo -u root -D .git cat config',
    'nsenter --wd=.git cat config',
    'nsenter -w.git cat config',
    'unshare --wd .git cat config',
    'unshare -w .git cat config',
    'systemd-run --working-directory=.git cat config',
    'systemd-run -p X=1 --working-directory .git cat config',
    'timeout 5 env -C .git cat config',
    'nice -n 5 sudo -D .git cat config',
    'env -C src sudo -D ../.git cat config',
    'nice git -C .git diff --no-index config /dev/null',
    'sudo git -C ~/.kube diff --no-index config /dev/null',
    'timeout 5 tar -C .git -cf - config',
    'sudo -D "$(mktemp -d)" cat config',
    // The last folder option counts (env, sudo, nsenter, unshare keep the last), not a chain of them.
    'env -C src -C .git cat config',
    'sudo -D src --chdir=.git cat config',
  ])('asks for %s', async (command) => {
    expect(await reason(command)).toMatch(/secret|cannot be known/);
  });

  it.each([
    'env -C src cat config',
    'sudo -D src cat config',
    'nsenter --wd=src cat config',
    'timeout 5 env -C src cat config',
    'nice git -C src status',
    'sudo -u root ls',
    'timeout 5 npm test',
  ])('allows %s', async (command) => {
    expect(await reason(command)).toBeNull();
  });
});
