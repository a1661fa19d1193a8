import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';
import type { ScriptedTurn } from '../support/scripted-llm-server.js';

/**
 * Issue #24, "the file tools held to the same rules as commands" (red team red3): makesGitFolder
 * asks git's test (HEAD, objects/, refs/) of the folders above a written file when it is written.
 * Git finds a repository another way: objects/ and refs/ named by a `commondir` file.
 */

const cli = useScriptedCli();

/** A common dir's config: git reads the folder's own config.worktree (core.worktree) beside it. */
const SHARED_CONFIG =
  '[core]\n\trepositoryformatversion = 1\n\tbare = false\n\tfsmonitor = touch fsmonitor-ran\n[extensions]\n\tworktreeConfig = true\n';

function write(id: string, path: string, content: string) {
  return { id, name: 'WriteFile', args: { path, content } };
}

async function runThenGitStatus(turns: ScriptedTurn[], folders: string[], gitIn: string): Promise<void> {
  const { sandbox } = await cli.setup([...turns, { text: 'done' }]);
  for (const folder of folders) await mkdir(join(sandbox.workDir, folder), { recursive: true });
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'add the fixture']);
  expect(result.code).toBe(0);
  // Later, the person looks at the folder with git (outside any sandbox).
  spawnSync('git', ['status'], { cwd: join(sandbox.workDir, gitIn), env: { PATH: process.env.PATH } });
  expect(existsSync(join(sandbox.workDir, 'fsmonitor-ran'))).toBe(false);
}

// Pure file tools in print mode: HEAD and a `commondir` naming a folder with objects/ and refs/ (a
// repository may hold such folders) whose config is written first; it has no HEAD, so no write
// looked like a git folder's, and git status in fixture/ ran core.fsmonitor.
it('WriteFile cannot make a git folder through commondir', async () => {
  await runThenGitStatus(
    [
      {
        toolCalls: [
          write('c', 'shared/config', SHARED_CONFIG),
          write('w', 'fixture/config.worktree', '[core]\n\tworktree = ..\n'),
          write('d', 'fixture/commondir', '../shared\n'),
          write('h', 'fixture/HEAD', 'ref: refs/heads/main\n'),
        ],
      },
    ],
    ['shared/objects', 'shared/refs', 'fixture'],
    'fixture',
  );
});

// The same folders, all made by one print-mode command in the sandbox: new-git-dirs cleans a git
// folder a command makes by git's test of the folder alone (its own objects/ and refs/).
it('a command cannot make a git folder through commondir', async () => {
  const command = [
    'mkdir -p shared/objects shared/refs fixture',
    `printf '${SHARED_CONFIG.replaceAll('\n', '\\n').replaceAll('\t', '\\t')}' > shared/config`,
    "printf '[core]\\n\\tworktree = ..\\n' > fixture/config.worktree",
    'echo ../shared > fixture/commondir',
    "echo 'ref: refs/heads/main' > fixture/HEAD",
  ].join('; ');
  await runThenGitStatus([{ toolCalls: [{ id: 's', name: 'Shell', args: { command } }] }], [], 'fixture');
});
