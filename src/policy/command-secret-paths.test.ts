import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandSecretReason, splitWords } from './command-secret-paths.js';
import { parseShellCommand } from './shell-command.js';

let root: string;
let work: string;
let homes: { userHome: string; kimiHome: string; configFiles: string[] };

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'cmd-secrets-'));
  work = join(root, 'work');
  await mkdir(join(work, '.git'), { recursive: true });
  await writeFile(join(work, '.git', 'config'), '[remote "o"]\n\turl = https://me:tok3n@example.com/r.git\n');
  await writeFile(join(work, 'prod.env'), 'A=1');
  await writeFile(join(work, 'readme.md'), 'hi');
  await writeFile(join(work, 'deploy-notes.txt'), 'push with ghp_abcdefghijklmnopqrstuvwxyz0123456789\n');
  await writeFile(join(root, 'agent.toml'), 'api_key = "x"');
  homes = {
    userHome: join(root, 'home'),
    kimiHome: join(root, 'home', '.kimi-ts'),
    configFiles: [join(root, 'agent.toml')],
  };
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function reason(command: string): Promise<string | null> {
  const parsed = await parseShellCommand(command);
  return commandSecretReason(parsed.parts, work, homes, undefined, parsed.loopWords);
}

describe('commandSecretReason', () => {
  it.each([
    'cat prod.env',
    'base64 < .envrc',
    'cp ~/.kimi-ts/config.toml x',
    "cat 'prod.env'",
    'cat pr\\od.env',
    'dd if=.env of=/dev/stdout',
    'cat *.env',
    'echo hi && rev < id_rsa',
    'cat ../agent.toml',
    'cat .git/config',
    'tar czf - ~/.ssh',
    'grep -r token .npmrc',
    'cat $(echo x) .env~',
    'cat nowhere/prod.env',
    'cat nowhere/*.env',
    'for f in *.env; do cat "$f"; done',
    'f=prod.env; cat $f',
    'a=(readme.md *.env); cat $a',
    'A=.envrc sh -c \'cat "$A"\'',
    'for f in readme.md prod.env; do wc -c "$f"; done',
    'select f in ~/.ssh/*; do cat "$f"; done',
    'bash -c \'for f in .envrc; do cat "$f"; done\'',
    // Secret by content: a token pasted in a note.
    'cat deploy-notes.txt | rev',
    'for f in *.txt; do base64 "$f"; done',
  ])('asks for %s', async (command) => {
    expect(await reason(command)).toMatch(/names the secret file/);
  });

  it.each([
    'cat readme.md',
    'ls -la',
    'git status',
    'cat .env.example',
    'npm test -- --run',
    'for f in src/*.ts; do wc -l "$f"; done',
    'wc -l readme.md nowhere.txt',
  ])('lets %s through', async (command) => {
    expect(await reason(command)).toBeNull();
  });

  it('splits words as the shell removes quotes', () => {
    expect(splitWords(`a "b c" 'd e' f\\ g`)).toEqual(['a', 'b c', 'd e', 'f g']);
  });

  // Folders are remembered by their identity; a clock a minute ahead makes every folder settled.
  const later = () => Date.now() + 60_000;

  it('sees a symlink swapped in after a decision (a name that was missing, a plain file replaced)', async () => {
    const dir = await mkdtemp(join(root, 'swap-'));
    const secretFile = join(root, 'home', '.ssh', 'id_ed25519');
    await mkdir(join(root, 'home', '.ssh'), { recursive: true });
    await writeFile(secretFile, 'key');
    await writeFile(join(dir, 'notes'), 'plain');
    const decide = async (command: string) =>
      commandSecretReason((await parseShellCommand(command)).parts, dir, homes, later);
    for (const command of ['cat status', 'cat notes', 'cat *.txt', 'cat status notes']) {
      expect(await decide(command)).toBeNull();
      expect(await decide(command)).toBeNull();
    }
    await symlink(secretFile, join(dir, 'status'));
    expect(await decide('cat status')).toMatch(/names the secret file status \(an SSH folder\)/);
    await symlink(secretFile, join(dir, 'swap'));
    await rename(join(dir, 'swap'), join(dir, 'notes'));
    expect(await decide('cat notes')).toMatch(/names the secret file notes/);
    await symlink(secretFile, join(dir, 'key.txt'));
    expect(await decide('cat *.txt')).toMatch(/names the secret file \*\.txt/);
  });

  // Issue #24 (red4): `.env -> config/prod-values` holds the deployment's values under a plain name.
  it('judges the name a word gives a symlink, and every name on its way, in settled folders too', async () => {
    const dir = await mkdtemp(join(root, 'links-'));
    await mkdir(join(dir, 'config'));
    await writeFile(join(dir, 'config', 'prod-values'), 'DB_PASSWORD=x\n');
    await symlink('config/prod-values', join(dir, '.env'));
    await symlink('.env', join(dir, 'settings'));
    await symlink('config/prod-values', join(dir, 'values'));
    const decide = async (command: string) =>
      commandSecretReason((await parseShellCommand(command)).parts, dir, homes, later);
    for (let round = 0; round < 2; round++) {
      expect(await decide('cat .env | rev')).toMatch(/names the secret file \.env \(a dotenv file\)/);
      expect(await decide('cat settings')).toMatch(/names the secret file settings \(a dotenv file\)/);
      expect(await decide('cat .e*')).toMatch(/names the secret file \.e\* \(a dotenv file\)/);
      expect(await decide('cat values config/prod-values')).toBeNull();
    }
  });

  it('sees a folder that was missing at the last decision and is now a symlink to a secret folder', async () => {
    const dir = await mkdtemp(join(root, 'swap-'));
    await mkdir(join(root, 'home', '.ssh'), { recursive: true });
    await writeFile(join(root, 'home', '.ssh', 'data'), 'key');
    const decide = async (command: string) => {
      const parsed = await parseShellCommand(command);
      return commandSecretReason(parsed.parts, dir, homes, later, parsed.loopWords);
    };
    // The working folder is listed (and remembered) first, then the missing folders are judged by it.
    for (const command of [
      'cat notes keys/data',
      'cat notes k2/*',
      'for f in k3/*; do cat "$f"; done',
      'cat k4/*',
    ]) {
      expect(await decide(command)).toBeNull();
      expect(await decide(command)).toBeNull();
    }
    await symlink(join(root, 'home', '.ssh'), join(dir, 'keys'));
    expect(await decide('cat notes keys/data')).toMatch(/names the secret file keys\/data \(an SSH folder\)/);
    await symlink(join(root, 'home', '.ssh'), join(dir, 'k2'));
    expect(await decide('cat notes k2/*')).toMatch(/names the secret file k2\/\* \(an SSH folder\)/);
    await symlink(join(root, 'home', '.ssh'), join(dir, 'k3'));
    expect(await decide('for f in k3/*; do cat "$f"; done')).toMatch(/names the secret file k3\/\*/);
    // A glob's folder alone: its parent is listed first, and the folder judged missing by that listing.
    await symlink(join(root, 'home', '.ssh'), join(dir, 'k4'));
    expect(await decide('cat k4/*')).toMatch(/names the secret file k4\/\* \(an SSH folder\)/);
  });

  it('sees a folder under a missing one that is now there (a symlink to a secret folder)', async () => {
    const dir = await mkdtemp(join(root, 'swap-'));
    await mkdir(join(root, 'home', '.ssh'), { recursive: true });
    await writeFile(join(root, 'home', '.ssh', 'data'), 'key');
    const decide = async (command: string) =>
      commandSecretReason((await parseShellCommand(command)).parts, dir, homes, later);
    expect(await decide('cat notes a/b/data')).toBeNull();
    expect(await decide('cat notes a/b/data')).toBeNull();
    await mkdir(join(dir, 'a'));
    await symlink(join(root, 'home', '.ssh'), join(dir, 'a', 'b'));
    expect(await decide('cat notes a/b/data')).toMatch(/names the secret file a\/b\/data \(an SSH folder\)/);
  });

  it('sees the working folder reached through a parent swapped for a symlink (its realpath is taken again)', async () => {
    const dir = await mkdtemp(join(root, 'swap-'));
    await mkdir(join(dir, 'a', 'b'), { recursive: true });
    await writeFile(join(dir, 'a', 'b', 'keyfile'), 'plain');
    const cwd = join(dir, 'a', 'b');
    const decide = async (command: string) =>
      commandSecretReason((await parseShellCommand(command)).parts, cwd, homes, later);
    expect(await decide('cat keyfile')).toBeNull();
    expect(await decide('cat keyfile')).toBeNull();
    // The same path now leads into the SSH folder: another folder (another inode) than the one resolved.
    await mkdir(join(root, 'home', '.ssh', 'b'), { recursive: true });
    await writeFile(join(root, 'home', '.ssh', 'b', 'keyfile'), 'key');
    await rename(join(dir, 'a'), join(dir, 'a-old'));
    await symlink(join(root, 'home', '.ssh'), join(dir, 'a'));
    expect(await decide('cat keyfile')).toMatch(/names the secret file keyfile \(an SSH folder\)/);
  });

  it('sees a folder on the way swapped for a symlink', async () => {
    const dir = await mkdtemp(join(root, 'swap-'));
    await mkdir(join(dir, 'sub'));
    await writeFile(join(dir, 'sub', 'keyfile'), 'plain');
    const decide = async (command: string) =>
      commandSecretReason((await parseShellCommand(command)).parts, dir, homes, later);
    expect(await decide('cat sub/keyfile')).toBeNull();
    expect(await decide('cat sub/keyfile')).toBeNull();
    await mkdir(join(root, 'home', '.ssh'), { recursive: true });
    await writeFile(join(root, 'home', '.ssh', 'keyfile'), 'key');
    await rename(join(dir, 'sub'), join(dir, 'old'));
    await symlink(join(root, 'home', '.ssh'), join(dir, 'sub'));
    expect(await decide('cat sub/keyfile')).toMatch(/names the secret file sub\/keyfile/);
  });
});
