import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24 (holes5, 6): a copy of the whole work tree (`cp -r .`, `rsync -a .`, `tar cf - .`) and
 * a read of the copy by names built at run time. With the sandbox on, the copy carries the
 * placeholder the sandbox binds over `.env`, not its values, and `| rev` takes nothing secret to the
 * model. (With `--sandbox off` nothing hides the file and `tar cf - . | tar xOf -` hands it over:
 * not covered, as the README says.)
 */

const cli = useScriptedCli();

// Each reads the copy by names the shell builds when it runs (the copy does not exist before).
const COPIES = [
  'cp -r . "$TMPDIR/c1" && cd "$TMPDIR/c1" && cat $(ls -A | grep en) | rev',
  'rsync -a . "$TMPDIR/c2" && cd "$TMPDIR/c2" && cat $(ls -A | grep en) | rev',
  'tar cf - . | tar xOf - | rev',
  'cp -r . ../c4 && cat ../c4/.[a-z]* | rev',
];

it('with the sandbox on, a copy of the work tree does not carry .env', async () => {
  const { server, sandbox } = await cli.setup([
    ...COPIES.map((command, i) => ({ toolCalls: [{ id: `c${i}`, name: 'Shell', args: { command } }] })),
    { text: 'done' },
  ]);
  await writeFile(join(sandbox.workDir, '.env'), 'DB_PASSWORD=correct-horse-battery-staple\n');
  await writeFile(join(sandbox.workDir, 'a.txt'), 'plain\n');
  const result = await sandbox.run(
    ['--print', '--sandbox', 'workspace-write', '--output-format', 'stream-json', '-p', 'copy'],
    { env: { TMPDIR: sandbox.root } },
  );
  expect(result.code, result.stderr).toBe(0);
  const { messages } = server.requests[COPIES.length]!.body as {
    messages: { role: string; content: unknown }[];
  };
  const sent = JSON.stringify(messages.filter((m) => m.role === 'tool').map((m) => m.content));
  expect(sent).not.toContain('elpats-yrettab-esroh-tcerroc');
  // The copies ran where a sandbox hides .env: the plain file came through (no test that cannot fail).
  expect(sent).toContain('nialp');
});
