import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
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
  return commandSecretReason(parsed.parts, work, homes);
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
  ])('asks for %s', async (command) => {
    expect(await reason(command)).toMatch(/names the secret file/);
  });

  it.each(['cat readme.md', 'ls -la', 'git status', 'cat .env.example', 'npm test -- --run'])(
    'lets %s through',
    async (command) => {
      expect(await reason(command)).toBeNull();
    },
  );

  it('splits words as the shell removes quotes', () => {
    expect(splitWords(`a "b c" 'd e' f\\ g`)).toEqual(['a', 'b c', 'd e', 'f g']);
  });
});
