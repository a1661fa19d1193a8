import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24, ".git/hooks and .git/config read-only inside the writable workspace" (red team red3): a
 * repository whose config sets `core.hooksPath` to a folder of the work tree (husky does: `.husky/`)
 * runs its hooks from there, and one whose config includes a work-tree file (`include.path`) reads
 * that file as its config. The sandbox and the file tools hold `.git/hooks` and `.git/config`, not
 * these: a print-mode command or file tool plants code that runs, outside any sandbox, at the
 * person's next `git commit` or `git status`.
 */

const cli = useScriptedCli();

async function huskyRepo(work: string): Promise<void> {
  execFileSync('git', ['init', '-q'], { cwd: work });
  execFileSync('git', ['config', 'core.hooksPath', '.husky'], { cwd: work });
  await mkdir(join(work, '.husky'));
  await writeFile(join(work, '.husky', 'pre-commit'), '#!/bin/sh\ntrue\n');
  await chmod(join(work, '.husky', 'pre-commit'), 0o755);
}

function personCommits(work: string): void {
  spawnSync(
    'git',
    ['-c', 'user.name=p', '-c', 'user.email=p@p', 'commit', '-q', '--allow-empty', '-m', 'x'],
    {
      cwd: work,
      env: { PATH: process.env.PATH, GIT_CONFIG_GLOBAL: '/dev/null' },
    },
  );
}

// A command appends to the hook in print mode (no question asked: the sandbox lets it write there).
it('a command cannot add to a hook in the folder core.hooksPath names', async () => {
  const { sandbox } = await cli.setup([
    {
      toolCalls: [
        { id: 's', name: 'Shell', args: { command: "echo 'touch hook-ran' >> .husky/pre-commit" } },
      ],
    },
    { text: 'done' },
  ]);
  await huskyRepo(sandbox.workDir);
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'tidy the hooks']);
  expect(result.code).toBe(0);
  personCommits(sandbox.workDir);
  expect(existsSync(join(sandbox.workDir, 'hook-ran'))).toBe(false);
});

// WriteFile (append) does the same: the file tools count `.git/hooks` as git metadata, not this folder.
it('WriteFile cannot add to a hook in the folder core.hooksPath names', async () => {
  const { sandbox } = await cli.setup([
    {
      toolCalls: [
        {
          id: 'w',
          name: 'WriteFile',
          args: { path: '.husky/pre-commit', content: 'touch hook-ran\n', mode: 'append' },
        },
      ],
    },
    { text: 'done' },
  ]);
  await huskyRepo(sandbox.workDir);
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'tidy the hooks']);
  expect(result.code).toBe(0);
  personCommits(sandbox.workDir);
  expect(existsSync(join(sandbox.workDir, 'hook-ran'))).toBe(false);
});

// A repository that shares its settings in the tree (`include.path = ../.gitconfig`, a common
// recipe) reads that file as its own config: WriteFile plants core.fsmonitor there in print mode,
// and the person's git status runs it.
it('WriteFile cannot plant core.fsmonitor in a work-tree file the repository config includes', async () => {
  const { sandbox } = await cli.setup([
    {
      toolCalls: [
        {
          id: 'w',
          name: 'WriteFile',
          args: { path: '.gitconfig', content: '[core]\n\tfsmonitor = touch fsmonitor-ran\n' },
        },
      ],
    },
    { text: 'done' },
  ]);
  execFileSync('git', ['init', '-q'], { cwd: sandbox.workDir });
  execFileSync('git', ['config', 'include.path', '../.gitconfig'], { cwd: sandbox.workDir });
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'share the settings']);
  expect(result.code).toBe(0);
  spawnSync('git', ['status'], {
    cwd: sandbox.workDir,
    env: { PATH: process.env.PATH, GIT_CONFIG_GLOBAL: '/dev/null' },
  });
  expect(existsSync(join(sandbox.workDir, 'fsmonitor-ran'))).toBe(false);
});
