import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24 (red3), the backstop: a credential a command prints that no check before the run could
 * see (made at run time here) is replaced by `[redacted]` in the tool message the model is sent.
 */

const cli = useScriptedCli();

it('a token a print-mode command prints is redacted in what the model is sent', async () => {
  const { server, sandbox } = await cli.setup([
    {
      toolCalls: [
        { id: 'c', name: 'Shell', args: { command: `printf 'gh%s\\n' "p_$(printf 'a%.0s' $(seq 36))"` } },
      ],
    },
    { text: 'done' },
  ]);
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'look']);
  expect(result.code).toBe(0);
  const { messages } = server.requests[1]!.body as { messages: { role: string; content: unknown }[] };
  const sent = JSON.stringify(messages.filter((m) => m.role === 'tool').map((m) => m.content));
  expect(sent).not.toContain(`ghp_${'a'.repeat(36)}`);
  expect(sent).toContain('[redacted]');
});
