import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CommandSandbox, createCommandSandbox, type SandboxContext } from './sandbox.js';

let root: string;
let context: SandboxContext;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-sandbox-secrets-')));
  const userHome = join(root, 'home');
  const workDir = join(root, 'work');
  await mkdir(userHome);
  await mkdir(join(workDir, 'sub'), { recursive: true });
  await writeFile(join(workDir, '.env'), 'API_KEY=top-secret\n');
  await writeFile(join(workDir, 'sub', 'prod.env'), 'API_KEY=prod-secret\n');
  await writeFile(join(workDir, 'notes.txt'), 'plain\n');
  context = {
    workDir,
    additionalDirs: () => [],
    userHome,
    // The agent's home inside the workspace: hidden whole, a secret file in it needs no bind of its own.
    kimiHome: join(workDir, 'state', 'kimi-home'),
    path: process.env.PATH,
  };
  await mkdir(context.kimiHome, { recursive: true });
  await writeFile(join(context.kimiHome, '.env'), 'API_KEY=agent-home-secret\n');
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function sandboxed(hideWorkspaceSecrets?: boolean): CommandSandbox {
  const state = createCommandSandbox(
    { mode: 'workspace-write', network: false, hideWorkspaceSecrets },
    context,
  );
  if (state.kind !== 'on') throw new Error(`expected a sandbox, got ${state.kind}`);
  return state.sandbox;
}

async function run(sandbox: CommandSandbox, script: string, approvedRead?: string) {
  const argv = [...(await sandbox.prefix(context.workDir, approvedRead)), '/bin/bash', '-c', script];
  const [file, ...args] = argv as [string, ...string[]];
  const result = await new Promise<{ code: number; output: string }>((settle) => {
    execFile(file, args, { encoding: 'utf8', cwd: context.workDir }, (error, stdout, stderr) => {
      settle({
        code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
        output: stdout + stderr,
      });
    });
  });
  await sandbox.commandEnded();
  return result;
}

describe('the workspace secret files in the sandbox (real bubblewrap)', () => {
  it('read as empty, refuse a write, and the rest of the tree is as it was', async () => {
    const sandbox = sandboxed();
    const read = await run(sandbox, 'cat .env sub/prod.env notes.txt; wc -c < .env');
    expect(read).toEqual({ code: 0, output: 'plain\n0\n' });
    const write = await run(sandbox, 'echo X=1 >> .env');
    expect(write.code).not.toBe(0);
    expect(write.output).toContain('Read-only file system');
    expect(await readFile(join(context.workDir, '.env'), 'utf8')).toBe('API_KEY=top-secret\n');
    sandbox.dispose();
  });

  it('a command approved as a read of .env sees that file, not the others', async () => {
    const sandbox = sandboxed();
    const read = await run(sandbox, 'cat .env sub/prod.env', 'cat .env sub/prod.env2');
    expect(read.output).toBe('API_KEY=top-secret\n');
    sandbox.dispose();
  });

  it('hides nothing of the workspace when the person turned it off', async () => {
    const sandbox = sandboxed(false);
    expect((await run(sandbox, 'cat .env')).output).toBe('API_KEY=top-secret\n');
    sandbox.dispose();
  });
});
