import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24, "the person's secret folders hidden; secrets by name and content" (found by a red team):
 * the sandbox hides the home's credentials from commands, and the file tools (which run outside it)
 * must count the same places secret: print mode approves a read outside the workspace on its own.
 * One list serves both (src/policy/home-credentials.ts).
 */

const cli = useScriptedCli();

const FILES: Record<string, string> = {
  '.vault-token': 'vault-secret-value-0001',
  '.azure/msal_token_cache.json': '{"RefreshToken":{"x":{"secret":"azure-secret-value-0002"}}}',
  '.terraform.d/credentials.tfrc.json':
    '{"credentials":{"app.terraform.io":{"token":"tfc-secret-value-0003"}}}',
  '.config/rclone/rclone.conf': '[s3]\ntype = s3\nsecret_access_key = rclone-secret-value-0004',
  '.cargo/credentials.toml': '[registry]\ntoken = "cargo-secret-value-0005"',
  '.m2/settings.xml':
    '<settings><servers><server><password>maven-secret-value-0006</password></server></servers></settings>',
  '.gradle/gradle.properties': 'signing.password=gradle-secret-value-0007',
  '.yarnrc.yml': 'npmAuthToken: yarn-secret-value-0008',
  '.codex/auth.json': '{"tokens":{"refresh_token":"codex-secret-value-0009"}}',
  '.config/op/config': '{"accounts":[{"secretKey":"op-secret-value-0010"}]}',
};

// ReadFile in print mode handed the model ten credential files of the home that the sandbox hid from
// commands (~/.vault-token, ~/.azure, ~/.terraform.d, rclone, cargo, maven, gradle, yarn, Codex,
// 1Password): only ~/.kube/config and ~/.docker/config.json of the same list were refused.
it('ReadFile refuses the home credential files the sandbox hides from commands (print mode)', async () => {
  const names = Object.keys(FILES);
  const { server, sandbox } = await cli.setup([]);
  // The CLI's HOME is the sandbox's root (CliSandbox.env).
  for (const [name, content] of Object.entries(FILES)) {
    await mkdir(dirname(join(sandbox.root, name)), { recursive: true });
    await writeFile(join(sandbox.root, name), `${content}\n`, { mode: 0o600 });
  }
  server.push(
    {
      toolCalls: names.map((name, i) => ({
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
  const sent = JSON.stringify(messages.filter((m) => m.role === 'tool'));
  expect(names.filter((name) => sent.includes(FILES[name]!.match(/[a-z0-9]+-secret-value-\d+/)![0]))).toEqual(
    [],
  );
});
