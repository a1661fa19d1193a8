import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24, ".git/hooks and .git/config read-only; the file tools held to the same rules as
 * commands" (found by a red team): the file tools could write a git folder not named `.git` (a
 * bare-style folder: HEAD, config, objects/, refs/); new-git-dirs cleans only what commands make.
 * A write that completes or changes such a folder is a protected write now.
 */

const cli = useScriptedCli();

// In print mode WriteFile alone made a folder a git folder whose `core.fsmonitor` ran, outside any
// sandbox, when the person (or their shell prompt) ran `git status` there.
it('WriteFile cannot plant core.fsmonitor in a bare-style git folder of the workspace', async () => {
  const config =
    '[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ..\n\tfsmonitor = touch fsmonitor-ran\n';
  const { sandbox } = await cli.setup([
    {
      toolCalls: [
        { id: 'h', name: 'WriteFile', args: { path: 'fixture/HEAD', content: 'ref: refs/heads/main\n' } },
        { id: 'c', name: 'WriteFile', args: { path: 'fixture/config', content: config } },
      ],
    },
    { text: 'done' },
  ]);
  // What a repository's test fixture may hold already: two empty folders.
  await mkdir(join(sandbox.workDir, 'fixture', 'objects'), { recursive: true });
  await mkdir(join(sandbox.workDir, 'fixture', 'refs'), { recursive: true });
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'add the fixture']);
  expect(result.code).toBe(0);
  // Later, the person looks at the folder with git.
  spawnSync('git', ['status'], { cwd: join(sandbox.workDir, 'fixture'), env: { PATH: process.env.PATH } });
  expect(existsSync(join(sandbox.workDir, 'fsmonitor-ran'))).toBe(false);
});
