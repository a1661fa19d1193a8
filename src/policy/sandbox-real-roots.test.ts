import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type CommandSandbox, createCommandSandbox, type SandboxContext } from './sandbox.js';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-real-roots-'));
  await mkdir(join(root, 'home'));
  await mkdir(join(root, 'work', 'real'), { recursive: true });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function sandboxFor(additionalDirs: string[]): { sandbox: CommandSandbox; context: SandboxContext } {
  const context: SandboxContext = {
    workDir: join(root, 'work'),
    additionalDirs: () => additionalDirs,
    userHome: join(root, 'home'),
    kimiHome: join(root, 'home', '.kimi-ts'),
    path: process.env.PATH,
  };
  const state = createCommandSandbox({ mode: 'workspace-write', network: false }, context);
  if (state.kind !== 'on') throw new Error(`expected a sandbox, got ${state.kind}`);
  return { sandbox: state.sandbox, context };
}

async function run(
  sandbox: CommandSandbox,
  cwd: string,
  script: string,
): Promise<{ code: number; output: string }> {
  const [file = '', ...args] = [...(await sandbox.prefix(cwd)), '/bin/bash', '-c', script];
  const result = await new Promise<{ code: number; output: string }>((resolve) => {
    execFile(file, args, { encoding: 'utf8', cwd }, (error, stdout, stderr) => {
      resolve({
        code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
        output: stdout + stderr,
      });
    });
  });
  sandbox.commandEnded();
  return result;
}

it('an added folder named through a symlink a command re-points is still bound by the folder it named', async () => {
  // Relative, as a repository's own link: inside the sandbox it names the same folder.
  await symlink('real', join(root, 'work', 'link'));
  const { sandbox, context } = sandboxFor([join(root, 'work', 'link')]);
  expect((await run(sandbox, context.workDir, 'ln -sfn .. link')).code).toBe(0);
  // The link now leads to the work dir's parent (a home): the next command must not bind that.
  const escaped = await run(sandbox, context.workDir, 'echo pwned > link/escaped');
  expect(existsSync(join(root, 'escaped')), escaped.output).toBe(false);
  expect((await run(sandbox, context.workDir, 'echo ok > real/kept')).code).toBe(0);
  expect(await readFile(join(root, 'work', 'real', 'kept'), 'utf8')).toBe('ok\n');
  sandbox.dispose();
});

it('a work dir named through a symlink runs its commands there (bound by its real path)', async () => {
  await symlink(join(root, 'work', 'real'), join(root, 'linked-work'));
  const context: SandboxContext = {
    workDir: join(root, 'linked-work'),
    additionalDirs: () => [],
    userHome: join(root, 'home'),
    kimiHome: join(root, 'home', '.kimi-ts'),
    path: process.env.PATH,
  };
  const state = createCommandSandbox({ mode: 'workspace-write', network: false }, context);
  if (state.kind !== 'on') throw new Error(`expected a sandbox, got ${state.kind}`);
  const result = await run(state.sandbox, context.workDir, 'echo ok > made && pwd -P');
  expect(result.output).toBe(`${join(root, 'work', 'real')}\n`);
  expect(await readFile(join(root, 'work', 'real', 'made'), 'utf8')).toBe('ok\n');
  state.sandbox.dispose();
});

it('a root whose folder on the way was moved and replaced by a symlink is refused, not bound', async () => {
  await mkdir(join(root, 'work', 'a', 'b'), { recursive: true });
  await mkdir(join(root, 'b'));
  const { sandbox, context } = sandboxFor([join(root, 'work', 'a', 'b')]);
  // The folder above the added one is the work dir's: a command moves it and leaves a link to '..'.
  expect((await run(sandbox, context.workDir, 'mv a a2 && ln -s .. a')).code).toBe(0);
  await expect(run(sandbox, context.workDir, 'echo pwned > a/b/escaped')).rejects.toThrow(
    /moved or replaced/,
  );
  expect(existsSync(join(root, 'b', 'escaped'))).toBe(false);
  sandbox.dispose();
});
