import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type CommandSandbox, createCommandSandbox, type SandboxContext } from './sandbox.js';
import type { EndedCommand } from './sandbox-types.js';

// A command that wrote a token into a file it names: the next command sees the file's redacted
// copy at once, though the folder's listing did not change (real bubblewrap; sandbox-secret-files.ts).

const TOKEN = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
const REVERSED = [...TOKEN].reverse().join('');

let root: string;
let context: SandboxContext;
let sandbox: CommandSandbox;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-token-named-')));
  const workDir = join(root, 'work');
  await mkdir(join(root, 'home'));
  await mkdir(workDir);
  await writeFile(join(workDir, 'notes.txt'), 'deploy notes\n');
  context = {
    workDir,
    additionalDirs: () => [],
    userHome: join(root, 'home'),
    kimiHome: join(root, 'kimi-home'),
    path: process.env.PATH,
    // Ten seconds on: the folder just made counts as settled (its listing is kept between readings).
    now: () => Date.now() + 10_000,
  };
  const state = createCommandSandbox(
    { mode: 'workspace-write', network: false, scanWorkspaceTokens: true },
    context,
  );
  if (state.kind !== 'on') throw new Error(`expected a sandbox, got ${state.kind}`);
  sandbox = state.sandbox;
});

afterEach(async () => {
  sandbox.dispose();
  await rm(root, { recursive: true, force: true });
});

async function run(script: string): Promise<string> {
  const argv = [...(await sandbox.prefix(context.workDir)), '/bin/bash', '-c', script];
  const [file, ...args] = argv as [string, ...string[]];
  const output = await new Promise<string>((settle) => {
    execFile(file, args, { encoding: 'utf8', cwd: context.workDir }, (_error, stdout, stderr) =>
      settle(stdout + stderr),
    );
  });
  const ended: EndedCommand = { command: script, cwd: context.workDir };
  await sandbox.commandEnded(ended);
  return output;
}

it('a token a command appends to a file it names is not read whole by the next command', async () => {
  expect(await run('cat notes.txt')).toBe('deploy notes\n');
  await run(`printf '%s%s\\n' ghp_ ${TOKEN.slice(4)} >> notes.txt`);
  const read = await run('cat "$(ls | grep notes)" | rev');
  expect(read).toContain('seton yolped');
  expect(read).toContain('_phg');
  expect(read).not.toContain(REVERSED);
});
