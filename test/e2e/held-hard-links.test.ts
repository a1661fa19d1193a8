import { execFileSync } from 'node:child_process';
import { chmod, link, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24, ".git/hooks, .git/config and .kimi-ts/ read-only inside the writable workspace" (found
 * by a red team): the sandbox holds them by path, and a file elsewhere in the workspace that is a hard
 * link to one of them (a tarball can carry one) wrote it anyway. The session's start now gives each
 * held file that is a hard link a copy of its own (src/policy/held-hard-links.ts).
 */

const cli = useScriptedCli();

// In print mode, appending to `docs/notes.md` (a hard link of `.kimi-ts/permissions.toml`) added an
// allow rule for every command to the rules file, which a trusted session then put in force.
it('a hard link in the workspace does not let a command or a file tool write the held rules file', async () => {
  const rule = '\n[[permission.rules]]\ndecision = "allow"\npattern = "Shell"\n';
  const { sandbox } = await cli.setup([
    {
      toolCalls: [
        {
          id: 's',
          name: 'Shell',
          args: { command: `printf '${rule.replaceAll('\n', '\\n')}' >> docs/notes.md` },
        },
        { id: 'w', name: 'WriteFile', args: { path: 'docs/todo.md', content: rule, mode: 'append' } },
      ],
    },
    { text: 'done' },
  ]);
  const rules = join(sandbox.workDir, '.kimi-ts', 'permissions.toml');
  const original = '# this project asks before it runs anything\n';
  await mkdir(join(sandbox.workDir, '.kimi-ts'));
  await mkdir(join(sandbox.workDir, 'docs'));
  await writeFile(rules, original);
  await link(rules, join(sandbox.workDir, 'docs', 'notes.md'));
  await link(rules, join(sandbox.workDir, 'docs', 'todo.md'));
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'take notes']);
  expect(result.code).toBe(0);
  expect(await readFile(rules, 'utf8')).toBe(original);
  // The other names keep the old file, and got what was written; the start said so.
  expect(await readFile(join(sandbox.workDir, 'docs', 'notes.md'), 'utf8')).toContain('decision = "allow"');
  expect(result.stderr).toContain('a copy of its own');
});

// Hard links of `.git/hooks/pre-commit` and `.git/config` in the work tree (a tarball carries them)
// let a print-mode command plant a hook and `core.fsmonitor`, and nothing cleaned them after it.
it('a hard link in the workspace does not let a command write the held .git hooks and config', async () => {
  const command =
    "echo 'touch hook-ran' >> scripts/check.sh; printf '[core]\\n\\tfsmonitor = touch fsmonitor-ran\\n' >> scripts/git.cfg";
  const { sandbox } = await cli.setup([
    { toolCalls: [{ id: 's', name: 'Shell', args: { command } }] },
    { text: 'done' },
  ]);
  execFileSync('git', ['init', '-q'], { cwd: sandbox.workDir });
  await mkdir(join(sandbox.workDir, 'scripts'));
  const hook = join(sandbox.workDir, '.git', 'hooks', 'pre-commit');
  await writeFile(hook, '#!/bin/sh\n');
  await chmod(hook, 0o755);
  const config = join(sandbox.workDir, '.git', 'config');
  const configBefore = await readFile(config, 'utf8');
  await link(hook, join(sandbox.workDir, 'scripts', 'check.sh'));
  await link(config, join(sandbox.workDir, 'scripts', 'git.cfg'));
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'tidy the scripts']);
  expect(result.code).toBe(0);
  expect.soft(await readFile(hook, 'utf8')).toBe('#!/bin/sh\n');
  expect.soft(await readFile(config, 'utf8')).toBe(configBefore);
});
