import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CommandSandbox, createCommandSandbox, type SandboxLaunch } from '../../policy/sandbox.js';
import { BindSourceMovedError } from '../../policy/sandbox-bind-fds.js';
import { spawnBashTask } from '../background/bash-task-process.js';
import { type CommandOutcome, runCommand } from './run-command.js';

/**
 * The window between the sandbox deciding what to bind (`launch`) and bwrap mounting it (the
 * spawn): another process that can write in a bind source's parent (a background command of this
 * session, another session's command) swaps the source for a symlink. The Shell tool awaits
 * `launch` and then `runCommand`: the swap is made between the two, as such a process could.
 */

let root: string;

beforeEach(async () => {
  // Real path: the tests compare with what bwrap binds.
  root = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-bind-race-')));
  await mkdir(join(root, 'home', '.kimi-ts'), { recursive: true });
  await writeFile(join(root, 'home', '.kimi-ts', 'config.toml'), 'api_key = "sk-hidden-in-agent-home"');
  await mkdir(join(root, 'work'));
  await mkdir(join(root, 'parent', 'extra'), { recursive: true });
  // What a swapping process prepares where it points the link: the protected folders bwrap binds too.
  for (const name of ['.git', '.kimi-ts'])
    await mkdir(join(root, 'outside', 'extra', name), { recursive: true });
  await mkdir(join(root, 'home', '.ssh'));
  await writeFile(join(root, 'home', '.ssh', 'id_rsa'), 'PRIVATE KEY never seen');
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function sandboxWith(
  additionalDirs: string[],
  mode: 'workspace-write' | 'read-only' = 'workspace-write',
  workDir = join(root, 'work'),
): CommandSandbox {
  const state = createCommandSandbox(
    { mode, network: false },
    {
      workDir,
      additionalDirs: () => additionalDirs,
      userHome: join(root, 'home'),
      kimiHome: join(root, 'home', '.kimi-ts'),
      path: process.env.PATH,
    },
  );
  if (state.kind !== 'on') throw new Error(`expected the sandbox, got ${state.kind}`);
  return state.sandbox;
}

async function runLaunched(
  launch: SandboxLaunch,
  cwd: string,
  command: string,
): Promise<{ outcome: CommandOutcome; output: string }> {
  let output = '';
  const outcome = await runCommand({
    bashPath: '/bin/bash',
    command,
    cwd,
    env: { PATH: process.env.PATH ?? '' },
    sandboxLaunch: launch,
    timeoutMs: 10_000,
    killGraceMs: 500,
    signal: new AbortController().signal,
    onOutput: (text) => {
      output += text;
    },
  });
  return { outcome, output };
}

/** Moves `path` aside and puts a relative symlink to `target` in its place. */
async function swapForSymlink(path: string, target: string): Promise<void> {
  await rename(path, `${path}-moved`);
  await symlink(target, path);
}

describe('a bind source swapped for a symlink between the decision and the spawn (real bwrap)', () => {
  it('a writable add-dir swapped for a relative symlink: the write does not land where it points', async () => {
    const extra = join(root, 'parent', 'extra');
    const sandbox = sandboxWith([extra]);
    const launch = await sandbox.launch(join(root, 'work'));
    await swapForSymlink(extra, '../outside/extra');
    const run = await runLaunched(launch, join(root, 'work'), `echo pwned > ${join(extra, 'escaped')}`);
    sandbox.commandEnded();
    expect(existsSync(join(root, 'outside', 'extra', 'escaped')), run.output).toBe(false);
    expect(run.outcome.kind, run.output).toBe('spawn_failed');
    if (run.outcome.kind === 'spawn_failed') expect(run.outcome.error.message).toContain(extra);
  });

  it('a folder on the way to an add-dir swapped for a symlink: refused as well', async () => {
    const extra = join(root, 'parent', 'extra');
    const sandbox = sandboxWith([extra]);
    const launch = await sandbox.launch(join(root, 'work'));
    await swapForSymlink(join(root, 'parent'), 'outside');
    const run = await runLaunched(launch, join(root, 'work'), `echo pwned > ${join(extra, 'escaped')}`);
    sandbox.commandEnded();
    expect(existsSync(join(root, 'outside', 'extra', 'escaped')), run.output).toBe(false);
    expect(run.outcome.kind, run.output).toBe('spawn_failed');
  });

  it('a read-only workspace swapped for a symlink to ~/.ssh: the keys stay hidden', async () => {
    // Another session's command can write the folder this workspace is in.
    const workspace = join(root, 'parent', 'extra');
    const sandbox = sandboxWith([], 'read-only', workspace);
    const launch = await sandbox.launch(workspace);
    await swapForSymlink(workspace, '../home/.ssh');
    const run = await runLaunched(launch, join(root, 'work'), `cat ${join(workspace, 'id_rsa')}`);
    sandbox.commandEnded();
    expect(run.output).not.toContain('PRIVATE KEY');
    expect(run.outcome.kind, run.output).toBe('spawn_failed');
  });

  it('unswapped, the same launch runs, and bwrap keeps none of the descriptors for the command', async () => {
    const extra = join(root, 'parent', 'extra');
    const sandbox = sandboxWith([extra]);
    const launch = await sandbox.launch(join(root, 'work'));
    const run = await runLaunched(
      launch,
      join(root, 'work'),
      `echo ok > ${join(extra, 'kept')} && for fd in /proc/$$/fd/*; do readlink "$fd"; done; true`,
    );
    sandbox.commandEnded();
    expect(run.outcome, run.output).toEqual({ kind: 'exited', exitCode: 0, leftRunning: false });
    expect(await readFile(join(extra, 'kept'), 'utf8')).toBe('ok\n');
    expect(run.output).not.toContain(extra);
    expect(run.output).not.toContain(join(root, 'work'));
  });

  it('a background command (spawned as a task) is refused the same way', async () => {
    const extra = join(root, 'parent', 'extra');
    const sandbox = sandboxWith([extra]);
    const launch = await sandbox.launch(join(root, 'work'));
    await swapForSymlink(extra, '../outside/extra');
    const started = spawnBashTask({
      shellPath: '/bin/bash',
      command: `echo pwned > ${join(extra, 'escaped')}`,
      cwd: join(root, 'work'),
      env: { PATH: process.env.PATH ?? '' },
      sandboxLaunch: launch,
      outputPath: join(root, 'task-output'),
    });
    await expect(started).rejects.toThrow(BindSourceMovedError);
    sandbox.commandEnded();
    expect(existsSync(join(root, 'outside', 'extra', 'escaped'))).toBe(false);
  });

  it('a symlinked .git (relative) is bound by where it leads: the command runs, .git stays read-only', async () => {
    await mkdir(join(root, 'work', 'repo-meta', 'hooks'), { recursive: true });
    await symlink('repo-meta', join(root, 'work', '.git'));
    const sandbox = sandboxWith([]);
    const launch = await sandbox.launch(join(root, 'work'));
    expect(launch.bindSources).toContain(join(root, 'work', 'repo-meta'));
    const run = await runLaunched(
      launch,
      join(root, 'work'),
      'echo ok > made; echo x > .git/hooks/pre-commit',
    );
    sandbox.commandEnded();
    expect(run.output, run.output).toContain('Read-only file system');
    expect(existsSync(join(root, 'work', 'made'))).toBe(true);
    expect(existsSync(join(root, 'work', 'repo-meta', 'hooks', 'pre-commit'))).toBe(false);
  });

  it('a command started in a folder named through a symlink (a plugin folder) sees it, read-only', async () => {
    await mkdir(join(root, 'plugins-real', 'p'), { recursive: true });
    await writeFile(join(root, 'plugins-real', 'p', 'plugin.json'), '{}');
    await symlink('plugins-real', join(root, 'plugins'));
    const pluginDir = join(root, 'plugins', 'p');
    const sandbox = sandboxWith([]);
    const launch = await sandbox.launch(pluginDir);
    const run = await runLaunched(launch, pluginDir, 'cat plugin.json && touch written');
    sandbox.commandEnded();
    expect(run.output).toContain('{}');
    expect(run.output).toContain('Read-only file system');
  });
});
