import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24 (holes4): a repository nested in the workspace (a subproject kept as its own repository,
 * with husky: `core.hooksPath = .husky`) runs its hooks from its work tree. Only the workspace's own
 * repository's config was read: a print-mode command or file tool planted code in the nested one's
 * hooks folder, which ran, outside any sandbox, at the person's next `git commit` there.
 */

const cli = useScriptedCli();

async function nestedHuskyRepo(work: string): Promise<string> {
  execFileSync('git', ['init', '-q'], { cwd: work });
  const sub = join(work, 'sub');
  await mkdir(sub);
  execFileSync('git', ['init', '-q'], { cwd: sub });
  execFileSync('git', ['config', 'core.hooksPath', '.husky'], { cwd: sub });
  await mkdir(join(sub, '.husky'));
  await writeFile(join(sub, '.husky', 'pre-commit'), '#!/bin/sh\ntrue\n');
  await chmod(join(sub, '.husky', 'pre-commit'), 0o755);
  return sub;
}

function personCommits(repo: string): void {
  spawnSync(
    'git',
    ['-c', 'user.name=p', '-c', 'user.email=p@p', 'commit', '-q', '--allow-empty', '-m', 'x'],
    { cwd: repo, env: { PATH: process.env.PATH, GIT_CONFIG_GLOBAL: '/dev/null' } },
  );
}

// These got through before (the attack first): the command and WriteFile each appended to the hook.
it.each([
  ['a command', { name: 'Shell', args: { command: "echo 'touch hook-ran' >> sub/.husky/pre-commit" } }],
  [
    'WriteFile',
    {
      name: 'WriteFile',
      args: { path: 'sub/.husky/pre-commit', content: 'touch hook-ran\n', mode: 'append' },
    },
  ],
])(
  '%s cannot add to a hook in the folder a nested repository’s core.hooksPath names',
  async (_name, call) => {
    const { sandbox } = await cli.setup([{ toolCalls: [{ id: 'c', ...call }] }, { text: 'done' }]);
    const sub = await nestedHuskyRepo(sandbox.workDir);
    const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'tidy the hooks']);
    expect(result.code).toBe(0);
    personCommits(sub);
    expect(existsSync(join(sub, 'hook-ran'))).toBe(false);
  },
);

// The hooks folder a nested repository's config names does not exist yet (husky before `npm
// install`): a command made it and put a hook in it, before; now an empty placeholder stands in for
// it while the session runs (read-only), and is gone after.
it('a command cannot create the missing hooks folder a nested repository’s config names', async () => {
  const command =
    "mkdir -p sub/tools/hooks && printf '#!/bin/sh\\ntouch hook-ran\\n' > sub/tools/hooks/pre-commit && chmod +x sub/tools/hooks/pre-commit";
  const { sandbox } = await cli.setup([
    { toolCalls: [{ id: 's', name: 'Shell', args: { command } }] },
    { text: 'done' },
  ]);
  const work = sandbox.workDir;
  execFileSync('git', ['init', '-q'], { cwd: work });
  const sub = join(work, 'sub');
  await mkdir(sub);
  execFileSync('git', ['init', '-q'], { cwd: sub });
  execFileSync('git', ['config', 'core.hooksPath', 'tools/hooks'], { cwd: sub });
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'set up the hooks']);
  expect(result.code).toBe(0);
  expect(existsSync(join(sub, 'tools'))).toBe(false);
  personCommits(sub);
  expect(existsSync(join(sub, 'hook-ran'))).toBe(false);
});
