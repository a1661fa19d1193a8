import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24, "the person's secret folders hidden" (red team red3): the home's credentials are a list
 * (src/policy/home-credentials.ts) and the content table knows formats; a common tool's credential
 * file in neither, with an opaque token, is read by ReadFile (print mode approves a read outside the
 * workspace) and handed to the model. (A command does not see them: the sandbox hides the home.)
 */

const cli = useScriptedCli();

const FILES: Record<string, string> = {
  '.s3cfg': '[default]\naccess_key = s3cmdaccess0001\nsecret_key = s3cmd-secret-value-0001',
  '.boto': '[Credentials]\ngs_oauth2_refresh_token = boto-secret-value-0002',
  '.config/configstore/firebase-tools.json': '{"tokens":{"refresh_token":"firebase-secret-value-0003"}}',
  '.local/share/com.vercel.cli/auth.json': '{"token":"vercel-secret-value-0004"}',
  '.kaggle/kaggle.json': '{"username":"me","key":"kaggle-secret-value-0005"}',
  '.config/ngrok/ngrok.yml': 'version: 2\nauthtoken: ngrok-secret-value-0006',
  '.pulumi/credentials.json': '{"accessTokens":{"https://api.pulumi.com":"pulumi-secret-value-0007"}}',
  '.fly/config.yml': 'access_token: fly-secret-value-0008',
  '.config/stripe/config.toml': "[default]\ntest_mode_api_key = 'stripe-secret-value-0009'",
  '.sentryclirc': '[auth]\ntoken=sentry-secret-value-0010',
};

function leaked(sent: string): string[] {
  return Object.keys(FILES).filter((name) =>
    sent.includes(FILES[name]!.match(/[a-z0-9]+-secret-value-\d+/)![0]),
  );
}

async function plant(root: string): Promise<void> {
  // The CLI's HOME is the sandbox's root (CliSandbox.env).
  for (const [name, content] of Object.entries(FILES)) {
    await mkdir(dirname(join(root, name)), { recursive: true });
    await writeFile(join(root, name), `${content}\n`, { mode: 0o600 });
  }
}

it('ReadFile in print mode does not hand over common credential files of the home', async () => {
  const { server, sandbox } = await cli.setup([]);
  await plant(sandbox.root);
  server.push(
    {
      toolCalls: Object.keys(FILES).map((name, i) => ({
        id: `r${i}`,
        name: 'ReadFile',
        args: { path: join(sandbox.root, name) },
      })),
    },
    { text: 'done' },
  );
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'check my setup']);
  expect(result.code).toBe(0);
  const { messages } = server.requests[1]!.body as { messages: { role: string; content: unknown }[] };
  expect(leaked(JSON.stringify(messages.filter((m) => m.role === 'tool')))).toEqual([]);
});
