import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandSecretReason } from './command-secret-paths.js';
import { parseShellCommand } from './shell-command.js';

/**
 * Names the shell builds before a command runs (braces, `$HOME`, `~user`, globs in folders, a `cd`
 * or `-C` before the word, variables assigned earlier in the command): each is judged as the file
 * the shell would hand over. Files that are secret only by where they lie (`~/.kube/config`, a
 * `.git/config` holding a token) show that the folder was worked out, not just the name.
 */

let root: string;
let work: string;
let homes: { userHome: string; kimiHome: string };

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'cmd-secret-exp-'));
  work = join(root, 'work');
  const home = join(root, 'home');
  homes = { userHome: home, kimiHome: join(home, '.kimi-ts') };
  for (const dir of ['.ssh', '.aws', '.kube', '.config/gh', '.kimi-ts'])
    await mkdir(join(home, dir), { recursive: true });
  await writeFile(join(home, '.ssh', 'id_rsa'), 'key');
  await writeFile(join(home, '.ssh', 'config'), 'Host x');
  await writeFile(join(home, '.aws', 'credentials'), '[default]');
  await writeFile(join(home, '.kube', 'config'), 'apiVersion: v1');
  await writeFile(join(home, '.config', 'gh', 'hosts.yml'), 'oauth_token: x');
  await writeFile(join(home, '.netrc'), 'machine x');
  await writeFile(join(home, '.kimi-ts', 'config.toml'), 'api_key = "x"');
  for (const dir of ['src', 'sub', 'other', '.git']) await mkdir(join(work, dir), { recursive: true });
  await writeFile(join(work, '.git', 'config'), '[remote "o"]\n\turl = https://me:tok3n@example.com/r.git\n');
  await writeFile(join(work, 'src', 'a.ts'), 'x');
  await writeFile(join(work, 'src', 'b.ts'), 'x');
  await writeFile(join(work, 'sub', '.env'), 'A=1');
  await writeFile(join(work, 'prod.env'), 'A=1');
  await writeFile(join(work, 'prod.txt'), 'x');
  await writeFile(join(root, 'other', 'notes'), 'x').catch(() => undefined);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function reason(command: string): Promise<string | null> {
  const parsed = await parseShellCommand(command);
  return commandSecretReason(parsed.parts, work, homes, undefined, parsed.loopWords);
}

const me = userInfo().username;

describe('commandSecretReason: names the shell builds', () => {
  it.each([
    // Brace expansion.
    'cat .e{n,}v',
    'cat ~/.ssh/{id_rsa,config}',
    'cat prod.{env,txt}',
    'cat ~/.{kube,x}/config',
    'cat ~/.k{u{b,x},y}e/config',
    // The home by its variable.
    'cat $HOME/.ssh/id_rsa',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
    'cat ${HOME}/.aws/credentials',
    'cat "$HOME"/.netrc',
    'cat $HOME/.kube/config',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
    'cat "${HOME}/.config/gh/hosts.yml"',
    // A home by its user's name.
    `cat ~${me}/.ssh/id_rsa`,
    `cat ~${me}/.kube/config`,
    'cat ~nobody/.kube/config',
    // A glob in a folder part.
    'cat ~/.ss?/id_*',
    'cat ~/.k*/config',
    'cat */.env',
    'cat .git/conf*',
    'cat .gi?/config',
    'cat ~/.config/g[h]/hosts.yml',
    // A cd before the word.
    'cd ~/.kube && cat config',
    'cd sub; cat .env',
    'cd .git && cat config',
    'cd ~/.config/gh; cat hosts.yml',
    'cd; cat .kube/config',
    'cd ~ && cat .netrc',
    'pushd ~/.kube && cat config',
    'cd src && cd ../.git && cat config',
    // A cd nobody can know: any relative word after it may be anything.
    'cd "$(mktemp -d)" && cat config',
    'cd $X; cat config',
    'cd - && cat config',
    'cd "$(cat config)"; cat config',
    "bash -c 'cd ~/.kube && cat config'",
    '(cd ~/.kube; cat config)',
    'echo $(cd ~/.kube && cat config)',
    'tar -C "$X" -cf - config',
    // `..` in the word.
    'cat ../work/sub/.env',
    'cat sub/../prod.env',
    'cat src/../.git/config',
    // -C / --directory: the folder the command's words resolve in.
    'git -C ~/.kube diff --no-index config /dev/null',
    'tar -C ~ -cf - .kube/config',
    'tar --directory=~/.kube -cf - config',
    'tar --directory ~/.kube -cf - config',
    'make -C ~/.kube config',
    'make --directory=.git config',
    'env -C .git cat config',
    'env --chdir=.git cat config',
    // Variables assigned earlier in the command.
    'd=~/.kube; cat $d/config',
    'd=~/.ssh; cat $d/id_rsa',
    'f=.env cat "$f"',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
    'd=.git; cat "${d}/config"',
    'export D=$HOME/.kube && cat $D/config',
    'a=.k; b=ube; cat ~/$a$b/config',
    'd=.git; cd $d && cat config',
    'for d in ~/.kube; do cat $d/config; done',
    'cd ~/.kube && cat $PWD/config',
    'cd ~/.kube; cd /tmp; cat ~-/config',
    'cd ~/.kube && cat ~+/config',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
    'cat ${X:-~/.kube}/config',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
    'cat ${X:-$HOME/.kube}/config',
  ])('asks for %s', async (command) => {
    expect(await reason(command)).toMatch(/secret|cannot be known/);
  });

  it.each([
    'cat src/{a,b}.ts',
    'cat src/*.ts',
    'cat */a.ts',
    'echo $HOME',
    'ls ~',
    'ls $HOME/projects',
    'cd src && cat a.ts',
    'cd src; ls',
    'cd ~/projects && npm test',
    'git -C src status',
    'tar -C src -cf - a.ts',
    'make -C src all',
    'grep -C 3 config src/a.ts',
    'd=src; cat $d/a.ts',
    'f=src/a.ts cat "$f"',
    'cat ../work/src/a.ts',
    'echo {1..3}',
    `ls ~${me}/projects`,
    'for d in src; do cat $d/a.ts; done',
    'cd "$(git rev-parse --show-toplevel)"',
    'cd $X',
  ])('lets %s through', async (command) => {
    expect(await reason(command)).toBeNull();
  });

  it.each([
    ['thousands of brace groups', `cat ${'{a,b}'.repeat(50_000)}`, /more names of/],
    ['thousands of nested braces', `cat ${'{'.repeat(5000)}a,b${'}'.repeat(5000)}`, /more names of/],
    ['thousands of variables', `cat ${'$a'.repeat(50_000)}/x`, null],
    ['thousands of variables after an assignment', `a=x; cat ${'$a'.repeat(50_000)}/x`, null],
    [
      'thousands of variables with two values each',
      `a=x; a=y; cat ${'$a'.repeat(50_000)}/x`,
      /more names of/,
    ],
  ])('%s: decided, no stack overflow', async (_name, command, expected) => {
    const answer = await reason(command);
    if (expected === null) expect(answer).toBeNull();
    else expect(answer).toMatch(expected);
    // A reason quotes the start of a word, never all of it.
    expect((answer ?? '').length).toBeLessThan(400);
  });

  it.each([
    `python3 -c "d = {'a': 1, 'b': 2}; e = {'c': 3, 'd': 4}; f = {1, 2}; print(d, e, f)"`,
    `python3 -c "${"x = {'a': 1, 'b': 2}; ".repeat(20)}"`,
    `for f in ${Array.from({ length: 400 }, (_, i) => `file${i}.txt`).join(' ')}; do wc -l "$f"; done`,
  ])('quoted braces and long loops stay unasked: %s', async (command) => {
    expect(await reason(command)).toBeNull();
  });

  describe('after a cd nobody can follow, in the sandbox (which hides the homes and config files)', () => {
    const sandboxed = async (command: string) => {
      const parsed = await parseShellCommand(command);
      return commandSecretReason(parsed.parts, work, homes, undefined, parsed.loopWords, true);
    };
    it.each([
      'cd "$(git rev-parse --show-toplevel)" && npm test',
      'cd "$(mktemp -d)" && cat notes.txt && ls -la',
      'cd $X; make build',
    ])('lets %s through: its words name no secret file by name', async (command) => {
      expect(await sandboxed(command)).toBeNull();
      // Without the sandbox, the folder may be one it would hide: asked.
      expect(await reason(command)).toMatch(/cannot be known/);
    });
    it.each([
      'cd "$X" && cat .env',
      'cd $X; base64 prod.env',
      'cd - && cat .envrc',
      'cd "$(pwd)/x"; cat id_rsa',
    ])('asks for %s: the name is a secret in any folder', async (command) => {
      expect(await sandboxed(command)).toMatch(/in a folder that cannot be known/);
    });
  });

  it('judges each loop by its own words, loop after loop in the same folder', async () => {
    for (let i = 0; i < 3; i++) {
      expect(await reason('for d in .kx; do cat ~/"$d"/config; done')).toBeNull();
      expect(await reason('for d in .kube; do cat ~/"$d"/config; done')).toMatch(/secret/);
    }
    // In a loop, `$OLDPWD` is a folder the command was in, as in a command with a cd.
    expect(await reason('for d in x; do cat "$OLDPWD"/.git/config; done')).toMatch(/git config/);
    expect(await reason('cd sub; for d in x; do cat "$OLDPWD"/.git/config; done')).toMatch(/git config/);
  });

  it('asks for a word that builds more names than are checked', async () => {
    const many = '{a,b}'.repeat(12);
    expect(await reason(`cat ${many}`)).toMatch(/more names of .* than are checked/);
  });
});
