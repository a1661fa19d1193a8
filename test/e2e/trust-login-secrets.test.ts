import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KimiCodeServer } from '../support/kimi-code-server.js';
import { useScriptedCli } from '../support/scripted-cli.js';

const PREFIX = 'kc-oauth-7d41e6a39f2b-';

const cli = useScriptedCli();

/** Every file under `dir` but the login's own credentials folder, as text. */
async function everythingWritten(dir: string): Promise<string> {
  let text = '';
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    if (!entry.isFile() || relative(dir, path).split(sep)[0] === 'credentials') continue;
    text += await readFile(path, 'utf8');
  }
  return text;
}

describe('#12: OAuth tokens of `kimi-ts login` are secrets', () => {
  it('redacts the access and refresh tokens (loaded and refreshed) from results, files, requests and stderr', async () => {
    const server = await KimiCodeServer.start({
      tokenPrefix: PREFIX,
      chatTurns: [
        { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: 'cat tokens.txt' } }] },
        { toolCalls: [{ id: 'c2', name: 'Shell', args: { command: 'echo "leak=[$LEAK_TOKEN]"' } }] },
        {
          toolCalls: [{ id: 'c3', name: 'Shell', args: { command: `echo ${PREFIX}at-1 > sent.txt` } }],
        },
        { text: 'done' },
      ],
    });
    cli.defer(() => server.http.close());
    const tokens = [1, 2].flatMap((n) => [server.accessTokenNumber(n), server.refreshTokenNumber(n)]);
    const sandbox = await cli.createSandbox({ baseUrl: `${server.url}/unused` });
    const env = { KIMI_CODE_OAUTH_HOST: server.url, KIMI_CODE_BASE_URL: `${server.url}/coding/v1` };
    expect((await sandbox.run(['login', '--json'], { bare: true, env })).code).toBe(0);
    // A file in the workspace holds the login's tokens, the one loaded now and the one a refresh brings.
    await writeFile(join(sandbox.workDir, 'tokens.txt'), `${tokens.join('\n')}\n`);
    server.expireOnNextChat = true;

    const run = await sandbox.run(
      ['-w', sandbox.workDir, '--print', '--output-format', 'stream-json', '-p', 'go'],
      {
        bare: true,
        env: { ...env, LEAK_TOKEN: server.accessTokenNumber(1) },
      },
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(server.refreshes).toEqual([server.refreshTokenNumber(1)]);
    const results = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { role: string; content: unknown })
      .filter((message) => message.role === 'tool')
      .map((message) => JSON.stringify(message.content));
    expect(results).toHaveLength(3);
    expect(results[0]!.match(/\[redacted\]/g) ?? []).toHaveLength(4);
    // The variable holding the token was taken out of the command's environment.
    expect(results[1]).toContain('leak=[]');
    // A call carrying the token is refused before it runs.
    expect(results[2]).toContain('its arguments contain a secret');
    expect(existsSync(join(sandbox.workDir, 'sent.txt'))).toBe(false);

    const written = run.stdout + run.stderr + (await everythingWritten(sandbox.home));
    for (const token of tokens) {
      expect(written).not.toContain(token);
      for (const request of server.chatRequests) expect(request.rawBody).not.toContain(token);
    }
  });
});
