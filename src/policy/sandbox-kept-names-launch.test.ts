import { execFile } from 'node:child_process';
import { existsSync, readlinkSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type CommandSandbox, createCommandSandbox, type SandboxContext } from './sandbox.js';

let root: string;
let work: string;
let context: SandboxContext;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-kept-launch-')));
  work = join(root, 'work');
  await mkdir(work);
  await mkdir(join(root, 'home'));
  context = {
    workDir: work,
    additionalDirs: () => [],
    userHome: join(root, 'home'),
    kimiHome: join(root, 'kimi-home'),
    configFiles: [],
    path: process.env.PATH,
    agentCode: { byFolder: [], byFile: [], madeWhenMissing: [], keptLinks: () => [join(work, 'current')] },
  };
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function sandboxed(): CommandSandbox {
  const state = createCommandSandbox({ mode: 'workspace-write', network: false }, context);
  if (state.kind !== 'on') throw new Error(`expected a sandbox, got ${state.kind}`);
  return state.sandbox;
}

/** `bash -c script` in the sandbox, in the work dir; its output, after the sandbox's checks. */
async function run(sandbox: CommandSandbox, script: string): Promise<string> {
  const argv = [...(await sandbox.prefix(work)), '/bin/bash', '-c', script];
  const [file, ...args] = argv as [string, ...string[]];
  const output = await new Promise<string>((resolve) => {
    execFile(file, args, { encoding: 'utf8', cwd: work }, (_error, stdout, stderr) =>
      resolve(stdout + stderr),
    );
  });
  await sandbox.commandEnded();
  return output;
}

it('removes the .npmrc and npx bins a command made, and says so to the model', async () => {
  const sandbox = sandboxed();
  const output = await run(
    sandbox,
    'echo node-options=--require=./x.cjs > .npmrc && mkdir -p node_modules/.bin && ln -s /bin/true node_modules/.bin/node && echo made',
  );
  expect(output).toContain('made');
  expect(existsSync(join(work, '.npmrc'))).toBe(false);
  expect(existsSync(join(work, 'node_modules', '.bin', 'node'))).toBe(false);
  expect(sandbox.takeNotes()).toContain('removed');
  sandbox.dispose();
});

it("binds an existing .npmrc read-only, and puts back a kept link a command re-pointed, also at the session's end", async () => {
  await writeFile(join(work, '.npmrc'), 'fund=false\n');
  await mkdir(join(work, 'v1'));
  await symlink('v1', join(work, 'current'));
  const sandbox = sandboxed();
  expect(await run(sandbox, 'echo node-options=x >> .npmrc || echo refused')).toContain('refused');
  expect(await run(sandbox, 'mkdir v2 && ln -sfn v2 current && echo repointed')).toContain('repointed');
  expect(readlinkSync(join(work, 'current'))).toBe('v1');
  // A background command still running when the session closes: put back when it ends.
  const argv = [...(await sandbox.prefix(work)), '/bin/bash', '-c', 'ln -sfn v2 current'];
  const [file, ...args] = argv as [string, ...string[]];
  sandbox.dispose();
  await new Promise((resolve) => execFile(file, args, { cwd: work }, resolve));
  expect(readlinkSync(join(work, 'current'))).toBe('v2');
  await sandbox.commandEnded();
  expect(readlinkSync(join(work, 'current'))).toBe('v1');
});
