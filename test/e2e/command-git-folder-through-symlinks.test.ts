import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';
import { toolResults } from '../support/stream-json.js';

/**
 * Issue #24, a git folder a command makes is cleaned when it ends (red team red4): the walk
 * (src/util/work-tree-walk.ts) counts `objects` and `refs` only as real folders and `commondir` only
 * as a regular file; git's own test (setup.c) follows symlinks. A print-mode command makes
 * `fixture/` with HEAD, a config (core.worktree, core.fsmonitor) and `objects`/`refs` (or
 * `commondir`) as symlinks: nothing is cleaned, and git status in fixture/ runs the fsmonitor.
 */

const cli = useScriptedCli();

const CONFIG =
  '[core]\\n\\trepositoryformatversion = 0\\n\\tbare = false\\n\\tworktree = ..\\n\\tfsmonitor = touch fsmonitor-ran\\n';

async function runThenGitStatus(command: string): Promise<void> {
  const { sandbox } = await cli.setup([
    { toolCalls: [{ id: 's', name: 'Shell', args: { command } }] },
    { text: 'done' },
  ]);
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'add the fixture']);
  expect(result.code).toBe(0);
  expect(JSON.stringify(toolResults(result.stdout))).toContain('made');
  // Later, the person looks at the folder with git (outside any sandbox).
  spawnSync('git', ['status'], {
    cwd: join(sandbox.workDir, 'fixture'),
    env: { PATH: process.env.PATH, GIT_CONFIG_GLOBAL: '/dev/null' },
  });
  expect(existsSync(join(sandbox.workDir, 'fsmonitor-ran'))).toBe(false);
}

it('a command cannot make a git folder whose objects/ and refs/ are symlinks', async () => {
  await runThenGitStatus(
    [
      'mkdir -p store/objects store/refs fixture',
      "echo 'ref: refs/heads/main' > fixture/HEAD",
      `printf '${CONFIG}' > fixture/config`,
      'ln -s ../store/objects fixture/objects',
      'ln -s ../store/refs fixture/refs',
      'echo made',
    ].join(' && '),
  );
});

// `commondir` read through a symlink (git opens it with open(2)); the common folder's config with
// worktreeConfig, and the folder's own config.worktree giving the work tree.
it('a command cannot make a git folder whose commondir is a symlink', async () => {
  await runThenGitStatus(
    [
      'mkdir -p shared/objects shared/refs fixture',
      "printf '[core]\\n\\trepositoryformatversion = 1\\n\\tbare = false\\n\\tfsmonitor = touch fsmonitor-ran\\n[extensions]\\n\\tworktreeConfig = true\\n' > shared/config",
      "printf '[core]\\n\\tworktree = ..\\n' > fixture/config.worktree",
      "echo 'ref: refs/heads/main' > fixture/HEAD",
      'echo ../shared > path.txt',
      'ln -s ../path.txt fixture/commondir',
      'echo made',
    ].join(' && '),
  );
});

// Variant: `objects` an executable file (git's access(X_OK) passes) and `refs` a symlink.
it('a command cannot make a git folder whose objects is an executable file', async () => {
  await runThenGitStatus(
    [
      'mkdir -p store/refs fixture',
      "echo 'ref: refs/heads/main' > fixture/HEAD",
      `printf '${CONFIG}' > fixture/config`,
      ': > fixture/objects && chmod +x fixture/objects',
      'ln -s ../store/refs fixture/refs',
      'echo made',
    ].join(' && '),
  );
});
