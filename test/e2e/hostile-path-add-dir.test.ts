import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

const cli = useScriptedCli();

/**
 * An add-dir whose `bin` is on PATH (a person's tools repository): the sandbox lets a command write
 * the add-dirs, and a `git` planted there was the checkpoints' git of the work dir at the next
 * record (only the work dir was left out of its PATH): run outside any sandbox, asked by nobody.
 */
it("a git a sandboxed command plants in an add-dir's folder on PATH never runs", async () => {
  const { sandbox, server } = await cli.setup([]);
  const tools = join(sandbox.root, 'tools');
  await mkdir(join(tools, 'bin'), { recursive: true });
  const ran = join(sandbox.root, 'RAN');
  const plant = `printf '#!/bin/sh\\necho outside > "${ran}"\\nexec /usr/bin/git "$@"\\n' > ${tools}/bin/git`;
  server.push(
    { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: `${plant} && chmod +x ${tools}/bin/git` } }] },
    { toolCalls: [{ id: 'c2', name: 'Shell', args: { command: 'echo second > f.txt' } }] },
    { text: 'Done.' },
  );
  const result = await sandbox.run(['--print', '--add-dir', tools, '-p', 'go'], {
    env: { PATH: `${join(tools, 'bin')}:${process.env.PATH}` },
  });
  expect(result.code).toBe(0);
  // The command did plant it (in the sandbox).
  expect(readFileSync(join(tools, 'bin', 'git'), 'utf8')).toContain('exec /usr/bin/git');
  expect(existsSync(ran) ? readFileSync(ran, 'utf8') : '').toBe('');
}, 60_000);
