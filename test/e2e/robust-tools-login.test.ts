import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { KimiCodeServer } from '../support/kimi-code-server.js';
import { type CliSandbox, collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { WireClient } from '../support/wire-process-client.js';

const cli = useScriptedCli();

/** The Kimi Code server (OAuth and the coding API) and a sandbox; the model lives there, not at baseUrl. */
async function startKimiCode(): Promise<{ server: KimiCodeServer; sandbox: CliSandbox }> {
  const server = await KimiCodeServer.start();
  cli.defer(() => server.http.close());
  return { server, sandbox: await cli.createSandbox({ baseUrl: `${server.url}/unused` }) };
}

describe('kimi-ts login / logout', () => {
  it('logs in with the device flow, answers with the login, refreshes after a 401, logs out', async () => {
    const { server, sandbox } = await startKimiCode();
    const env = { KIMI_CODE_OAUTH_HOST: server.url, KIMI_CODE_BASE_URL: `${server.url}/coding/v1` };

    const login = await sandbox.run(['login', '--json'], { bare: true, env });
    expect(login.stderr).toBe('');
    expect(login.code).toBe(0);
    const events = login.stdout
      .trim()
      .split('\n')
      .map(
        (line) => JSON.parse(line) as { type: string; message: string; data: Record<string, unknown> | null },
      );
    expect(events.map((e) => e.type)).toEqual(['verification_url', 'waiting', 'success']);
    // What @moonshot-ai/kimi-agent-sdk's login() reads to show the user where to go.
    expect(events[0]?.data?.verification_url).toBe(`${server.url}/device?user_code=WXYZ-1234`);
    expect(events[0]?.data?.user_code).toBe('WXYZ-1234');

    const credentials = join(sandbox.home, 'credentials', 'kimi-code.json');
    expect((await stat(credentials)).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(await readFile(credentials, 'utf8')) as {
      access_token: string;
      refresh_token: string;
    };
    expect(stored).toMatchObject({ access_token: 'at-1', refresh_token: 'rt-1' });
    const config = parseToml(await readFile(join(sandbox.home, 'config.toml'), 'utf8')) as {
      default_model: string;
      providers: Record<string, { type: string; api_key: string; oauth: { storage: string; key: string } }>;
      models: Record<string, { provider: string; model: string; max_context_size: number }>;
    };
    // The shape the agent SDK's isLoggedIn() checks: the managed provider with an oauth table.
    expect(config.providers['managed:kimi-code']).toEqual({
      type: 'kimi',
      base_url: `${server.url}/coding/v1`,
      api_key: '',
      oauth: { storage: 'file', key: 'oauth/kimi-code' },
    });
    expect(config.default_model).toBe('kimi-code/kimi-for-coding');
    expect(config.models['kimi-code/kimi-for-coding']).toMatchObject({
      model: 'kimi-for-coding',
      max_context_size: 131072,
    });
    // The token never appears in what the user or a program reads.
    expect(login.stdout).not.toContain('at-1');
    // Kimi CLI's device headers (kimi-cli auth/oauth.py `_common_headers`) on every OAuth request,
    // with one device id, kept 0600 under the home.
    const oauthRequests = server.http.requests.filter((r) => r.path.startsWith('/api/oauth/'));
    expect(oauthRequests.length).toBeGreaterThanOrEqual(3);
    const deviceId = (await readFile(join(sandbox.home, 'device_id'), 'utf8')).trim();
    expect(deviceId).toMatch(/^[0-9a-f]{32}$/);
    expect((await stat(join(sandbox.home, 'device_id'))).mode & 0o777).toBe(0o600);
    for (const request of oauthRequests) {
      expect(request.headers['x-msh-platform']).toBe('kimi_cli');
      expect(request.headers['x-msh-device-id']).toBe(deviceId);
      expect(request.headers['x-msh-version']).toMatch(/^\d+\.\d+/);
      for (const name of ['x-msh-device-name', 'x-msh-device-model', 'x-msh-os-version'])
        expect(request.headers[name]).toMatch(/^[\x20-\x7e]+$/);
    }

    // The first model call is refused (the token expired): one refresh, then the call succeeds.
    server.expireOnNextChat = true;
    const run = await sandbox.run(['-w', sandbox.workDir, '--print', '-p', 'hi'], { bare: true, env });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Hello from Kimi Code.\n');
    expect(server.refreshes).toEqual(['rt-1']);
    const refreshed = JSON.parse(await readFile(credentials, 'utf8')) as {
      access_token: string;
      refresh_token: string;
    };
    expect(refreshed).toMatchObject({ access_token: 'at-2', refresh_token: 'rt-2' });
    expect((await stat(credentials)).mode & 0o777).toBe(0o600);

    const logout = await sandbox.run(['logout', '--json'], { bare: true, env });
    expect(logout.code).toBe(0);
    expect(JSON.parse(logout.stdout.trim())).toMatchObject({ type: 'success', message: 'Logged out.' });
    expect(existsSync(credentials)).toBe(false);
    const after = parseToml(await readFile(join(sandbox.home, 'config.toml'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(JSON.stringify(after)).not.toContain('managed:kimi-code');
    expect(after.default_model).toBeUndefined();
  });

  it('wire mode answers -32004 when the login cannot be refreshed', async () => {
    const { server, sandbox } = await startKimiCode();
    const env = { KIMI_CODE_OAUTH_HOST: server.url, KIMI_CODE_BASE_URL: `${server.url}/coding/v1` };
    expect((await sandbox.run(['login', '--json'], { bare: true, env })).code).toBe(0);
    server.expireOnNextChat = true;
    server.refuseRefresh = true;
    const child = sandbox.spawn(['-w', sandbox.workDir, '--wire'], { bare: true, env });
    const client = new WireClient(child);
    await client.request('initialize', { protocol_version: '1.10' });
    const prompt = await client.request('prompt', { user_input: 'hi' });
    expect(prompt.error?.code).toBe(-32004);
    expect(prompt.error?.message).toContain('Please run "kimi-ts login" to sign in again');
    expect(prompt.error?.message).not.toContain('at-1');
    child.stdin!.end();
    expect((await collect(child)).code).toBe(0);
  });

  it('a login the server refuses fails with exit 1 and an error event', async () => {
    const { server, sandbox } = await startKimiCode();
    const result = await sandbox.run(['login', '--json'], {
      bare: true,
      env: { KIMI_CODE_OAUTH_HOST: `${server.url}/nowhere` },
    });
    expect(result.code).toBe(1);
    const last = JSON.parse(result.stdout.trim().split('\n').at(-1)!) as { type: string; message: string };
    expect(last.type).toBe('error');
    expect(last.message).toContain('Login failed');
    expect(existsSync(join(sandbox.home, 'credentials'))).toBe(false);
  });
});
