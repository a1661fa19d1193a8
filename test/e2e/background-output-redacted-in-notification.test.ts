import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24, "tool output is redacted as a backstop" (red team red4): redactToolOutput replaces
 * known token formats in tool messages only; a background task's output reaches the model in its
 * completion notification, a user message, as it is. A print-mode background command reads a
 * plain-named file holding a token by a name built at run time (no check before it runs), and the
 * token, not even encoded, is in the next request.
 */

const cli = useScriptedCli();
const TOKEN = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';

it('a token printed by a background command is redacted in its notification', async () => {
  const { server, sandbox } = await cli.setup([
    {
      toolCalls: [
        {
          id: 'bg',
          name: 'Shell',
          args: { command: 'cat "$(ls | grep notes)"', run_in_background: true, description: 'read notes' },
        },
      ],
    },
    { text: 'Started it; waiting for the result.' },
    { text: 'done' },
  ]);
  await writeFile(join(sandbox.workDir, 'deploy-notes.txt'), `push with ${TOKEN}\n`);
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'read the notes']);
  expect(result.code).toBe(0);
  expect(server.requests).toHaveLength(3);
  const third = JSON.stringify(server.requests[2]?.body);
  expect(third).toContain('<notification');
  expect(third).not.toContain(TOKEN);
});
