import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';
import { toolResults } from '../support/stream-json.js';

/**
 * Issue #24, what git's config names in the work tree is held (red team red4): an include or a
 * `core.hooksPath` folder that is a symlink (a project keeping versioned settings, `shared.gitconfig
 * -> v1.gitconfig`) is held where it leads, but the link itself is not a mount point: a print-mode
 * command points it at a file or folder of its own, and the person's next git runs that.
 */

const cli = useScriptedCli();
const env = { PATH: process.env.PATH, GIT_CONFIG_GLOBAL: '/dev/null' };

async function runCommand(command: string, prepare: (work: string) => Promise<void>): Promise<string> {
  const { sandbox } = await cli.setup([
    { toolCalls: [{ id: 's', name: 'Shell', args: { command } }] },
    { text: 'done' },
  ]);
  const work = sandbox.workDir;
  execFileSync('git', ['init', '-q'], { cwd: work });
  await prepare(work);
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'tidy up']);
  expect(result.code).toBe(0);
  return work;
}

// include.path = ../conf/shared.gitconfig, conf/shared.gitconfig -> v1.gitconfig: the command makes
// conf/evil and repoints the link; git status runs its core.fsmonitor.
it('a command cannot repoint a symlinked include to a config of its own', async () => {
  const command =
    "printf '[core]\\n\\tfsmonitor = touch fsmonitor-ran\\n' > conf/evil && ln -sfn evil conf/shared.gitconfig";
  const work = await runCommand(command, async (work) => {
    await mkdir(join(work, 'conf'));
    await writeFile(join(work, 'conf', 'v1.gitconfig'), '[pull]\n\trebase = true\n');
    await symlink('v1.gitconfig', join(work, 'conf', 'shared.gitconfig'));
    execFileSync('git', ['config', 'include.path', '../conf/shared.gitconfig'], { cwd: work });
  });
  spawnSync('git', ['status'], { cwd: work, env });
  expect(existsSync(join(work, 'fsmonitor-ran'))).toBe(false);
});

// core.hooksPath = tools/hooks, tools/hooks -> hooks-v1: the command replaces the link by a folder
// with a pre-commit of its own; the person's git commit runs it.
it('a command cannot replace a symlinked core.hooksPath folder', async () => {
  const command =
    "rm tools/hooks && mkdir tools/hooks && printf '#!/bin/sh\\ntouch hook-ran\\n' > tools/hooks/pre-commit && chmod +x tools/hooks/pre-commit";
  const work = await runCommand(command, async (work) => {
    await mkdir(join(work, 'tools', 'hooks-v1'), { recursive: true });
    await writeFile(join(work, 'tools', 'hooks-v1', 'pre-commit'), '#!/bin/sh\ntrue\n');
    await chmod(join(work, 'tools', 'hooks-v1', 'pre-commit'), 0o755);
    await symlink('hooks-v1', join(work, 'tools', 'hooks'));
    execFileSync('git', ['config', 'core.hooksPath', 'tools/hooks'], { cwd: work });
  });
  spawnSync(
    'git',
    ['-c', 'user.name=p', '-c', 'user.email=p@p', 'commit', '-q', '--allow-empty', '-m', 'x'],
    { cwd: work, env },
  );
  expect(existsSync(join(work, 'hook-ran'))).toBe(false);
});

// Variant: core.hooksPath = tools/current/hooks, tools/current -> v1 (a link on the way, not the
// name): the command repoints tools/current to a folder of its own with a pre-commit.
it('a command cannot repoint a symlinked folder on the way to core.hooksPath', async () => {
  const command =
    "mkdir -p evil/hooks && printf '#!/bin/sh\\ntouch hook-ran\\n' > evil/hooks/pre-commit && chmod +x evil/hooks/pre-commit && ln -sfn ../evil tools/current; echo done";
  const work = await runCommand(command, async (work) => {
    await mkdir(join(work, 'tools', 'v1', 'hooks'), { recursive: true });
    await writeFile(join(work, 'tools', 'v1', 'hooks', 'pre-commit'), '#!/bin/sh\ntrue\n');
    await chmod(join(work, 'tools', 'v1', 'hooks', 'pre-commit'), 0o755);
    await symlink('v1', join(work, 'tools', 'current'));
    execFileSync('git', ['config', 'core.hooksPath', 'tools/current/hooks'], { cwd: work });
  });
  spawnSync(
    'git',
    ['-c', 'user.name=p', '-c', 'user.email=p@p', 'commit', '-q', '--allow-empty', '-m', 'x'],
    { cwd: work, env },
  );
  expect(existsSync(join(work, 'evil', 'hooks', 'pre-commit'))).toBe(true);
  expect(existsSync(join(work, 'hook-ran'))).toBe(false);
});

// An include reached through a symlinked folder (conf -> settings): the held path names the link, the
// sandbox's descriptor check refuses it, and no command of the session runs at all.
it('an include through a symlinked folder does not stop every command', async () => {
  const { sandbox } = await cli.setup([
    { toolCalls: [{ id: 's', name: 'Shell', args: { command: 'echo still-runs' } }] },
    { text: 'done' },
  ]);
  const work = sandbox.workDir;
  execFileSync('git', ['init', '-q'], { cwd: work });
  await mkdir(join(work, 'settings'));
  await writeFile(join(work, 'settings', 'shared.gitconfig'), '[pull]\n\trebase = true\n');
  await symlink('settings', join(work, 'conf'));
  execFileSync('git', ['config', 'include.path', '../conf/shared.gitconfig'], { cwd: work });
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'say hi']);
  expect(result.code).toBe(0);
  expect(JSON.stringify(toolResults(result.stdout))).toContain('still-runs');
});
