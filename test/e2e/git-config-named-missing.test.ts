import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';
import { toolResults } from '../support/stream-json.js';

/**
 * Issue #24: what a repository's git config names and does not exist yet (an include `.gitconfig`,
 * a hooks folder `tools/hooks`) is held too: a command cannot create it in the sandbox (an empty
 * placeholder, read-only, stands in for it while the session runs), and nothing of the placeholders
 * stays in the person's tree afterwards.
 */

const cli = useScriptedCli();

it('a command cannot create the missing file an include names or the missing hooks folder; nothing is left after', async () => {
  const command = [
    "printf '[core]\\n\\tfsmonitor = touch fsmonitor-ran\\n' > .gitconfig",
    "mkdir -p tools/hooks && printf '#!/bin/sh\\ntouch hook-ran\\n' > tools/hooks/pre-commit && chmod +x tools/hooks/pre-commit",
  ].join('; ');
  const { sandbox } = await cli.setup([
    { toolCalls: [{ id: 's', name: 'Shell', args: { command } }] },
    { text: 'done' },
  ]);
  const work = sandbox.workDir;
  execFileSync('git', ['init', '-q'], { cwd: work });
  execFileSync('git', ['config', 'include.path', '../.gitconfig'], { cwd: work });
  execFileSync('git', ['config', 'core.hooksPath', 'tools/hooks'], { cwd: work });
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'set up the hooks']);
  expect(result.code).toBe(0);
  // Both writes failed in the sandbox (read-only file system).
  expect(JSON.stringify(toolResults(result.stdout))).toMatch(/Read-only file system/);
  // The placeholders are gone with the session: the tree is as the person left it.
  expect(existsSync(join(work, '.gitconfig'))).toBe(false);
  expect(existsSync(join(work, 'tools'))).toBe(false);
  const env = { PATH: process.env.PATH, GIT_CONFIG_GLOBAL: '/dev/null' };
  spawnSync('git', ['status'], { cwd: work, env });
  spawnSync(
    'git',
    ['-c', 'user.name=p', '-c', 'user.email=p@p', 'commit', '-q', '--allow-empty', '-m', 'x'],
    {
      cwd: work,
      env,
    },
  );
  expect(existsSync(join(work, 'fsmonitor-ran'))).toBe(false);
  expect(existsSync(join(work, 'hook-ran'))).toBe(false);
});
