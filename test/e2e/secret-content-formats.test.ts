import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24, "secret files by content (well-known token formats)" (found by a red team): in print
 * mode, where a secret read is refused, ReadFile handed the model files holding credentials of
 * formats gitleaks knows and kimi-ts's own table did not (src/policy/secret-content.ts).
 */

const cli = useScriptedCli();

const SAMPLES: Record<string, string> = {
  'aws.ini': 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY',
  'oauth.yml': 'client_secret: GOCSPX-abcdefghijklmnopqrstuvwx12',
  'publish.cfg':
    'password = pypi-AgEIcHlwaS5vcmcCJGE0ZjY0NjA0LTY2ZDQtNDQ1My1iZDZlLWVmMGFiNzBmYWI3MgACKlszLCJmYzY3NmU3MS1mZWY4LTQ5',
  'mail.txt': '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',
  'droplet.txt': `dop_v1_${'a1'.repeat(32)}`,
  'backup.txt': 'AGE-SECRET-KEY-1QQPQZL2YSK9RXFQQ2Z3VSUCKAW3JN8RJJZ9QQZX8ZZ8TQQPQZL2YSK9RX',
  'storage.txt':
    'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYQ==;EndpointSuffix=core.windows.net',
  'shop.txt': `shpat_${'0123456789abcdef'.repeat(2)}`,
  'bot.txt': 'bot_token: 123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw',
};

// Nine common credential formats (AWS secret key, Google OAuth client secret, PyPI, SendGrid,
// DigitalOcean, age, Azure storage, Shopify, Telegram).
it('files holding well-known credential formats are secret by content (print mode refuses them)', async () => {
  const names = Object.keys(SAMPLES);
  const { server, sandbox } = await cli.setup([
    { toolCalls: names.map((path, i) => ({ id: `r${i}`, name: 'ReadFile', args: { path } })) },
    { text: 'done' },
  ]);
  for (const [name, line] of Object.entries(SAMPLES))
    await writeFile(join(sandbox.workDir, name), `${line}\n`);
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'read the config']);
  expect(result.code).toBe(0);
  const { messages } = server.requests[1]!.body as { messages: { role: string; content: unknown }[] };
  const sent = JSON.stringify(messages.filter((m) => m.role === 'tool'));
  expect(names.filter((name) => sent.includes(SAMPLES[name]!.slice(-20)))).toEqual([]);
});
