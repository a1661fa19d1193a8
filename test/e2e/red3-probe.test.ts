import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';
const cli = useScriptedCli();
it('probe', async () => {
  const command = process.env.PROBE!;
  const { server, sandbox } = await cli.setup([
    { toolCalls: [{ id: 's', name: 'Shell', args: { command } }] },
    { text: 'done' },
  ], { apiKey: 'sk-probe-key-1234567890abcdefghij' });
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'look', ...(process.env.PROBE_FLAGS ? process.env.PROBE_FLAGS.split(' ') : [])]);
  const { messages } = server.requests[1]!.body as { messages: { role: string; content: unknown }[] };
  console.log('PROBE-OUT', String(messages.filter((m) => m.role === 'tool').map((m) => m.content)));
  console.log('PROBE-ERR', result.stderr.slice(0, 1500));
  expect(1).toBe(1);
});
