import { execFileSync } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24 (holes5, 5): a backup archive holding the project's `.env`, compressed with bzip2, xz or
 * zstd, read by a name built at run time (past every check of the command's words): the sandbox
 * hides it as it hides a `.tar.gz` holding one, and `| rev` cannot take the values past the
 * redaction (print mode).
 */

const cli = useScriptedCli();

it.each([
  ['backup.tar.xz', 'xz', 'J'],
  ['backup.tar.bz2', 'bz2', 'j'],
  ['backup.tar.zst', 'zst', ' --zstd -'],
])('a .env inside %s is not read by a name built at run time', async (name, grep, flag) => {
  const { server, sandbox } = await cli.setup([
    {
      toolCalls: [
        { id: 'c', name: 'Shell', args: { command: `tar x${flag}Of "$(ls | grep ${grep})" | rev` } },
      ],
    },
    { text: 'done' },
  ]);
  const dir = sandbox.workDir;
  await mkdir(join(dir, 'old'));
  await writeFile(join(dir, 'old', '.env'), 'DB_PASSWORD=correct-horse-battery-staple\n');
  execFileSync('tar', ['-caf', join(dir, name), '-C', join(dir, 'old'), '.env']);
  await rm(join(dir, 'old'), { recursive: true });
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'look']);
  expect(result.code).toBe(0);
  const { messages } = server.requests[1]!.body as { messages: { role: string; content: unknown }[] };
  const sent = JSON.stringify(messages.filter((m) => m.role === 'tool').map((m) => m.content));
  expect(sent).not.toContain('elpats-yrettab-esroh-tcerroc');
});
