import { execFileSync } from 'node:child_process';
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorResponder, LoopbackServer } from '../support/loopback-server.js';
import { CLI_NODE } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';

const cli = useScriptedCli();
const KEY = 'sk-doctor-secret-4711';

/** A model server answering `GET /models` with `status`, closed after the test. */
async function modelServer(status: number): Promise<LoopbackServer> {
  const server = await LoopbackServer.start();
  cli.defer(() => server.close());
  server.fallback = errorResponder(status, status === 200 ? { data: [] } : { error: { message: 'bad key' } });
  return server;
}

/** The line of one check in doctor's output. */
function line(stdout: string, name: string): string {
  return stdout.split('\n').find((l) => l.includes(` ${name} `)) ?? `(no line for ${name})`;
}

describe('kimi-ts doctor', () => {
  it('passes with a reachable model, names where the key came from and never shows it', async () => {
    const server = await modelServer(200);
    const sandbox = await cli.createSandbox({ baseUrl: `${server.url}/v1`, apiKey: KEY });
    const result = await sandbox.run(['doctor']);
    expect(result.stdout).not.toContain(KEY);
    expect(result.stderr).not.toContain(KEY);
    expect(line(result.stdout, 'config')).toContain(sandbox.configFile);
    expect(line(result.stdout, 'home')).toContain(sandbox.home);
    expect(line(result.stdout, 'model')).toContain('e2e-model');
    expect(line(result.stdout, 'API key')).toContain(`providers.local.api_key in ${sandbox.configFile}`);
    expect(line(result.stdout, 'model reachable')).toContain('answered HTTP 200');
    // The Node the CLI runs on (CI runs it on 22 and 24 too).
    expect(line(result.stdout, 'node')).toContain(
      execFileSync(CLI_NODE, ['--version'], { encoding: 'utf8' }).trim(),
    );
    expect(line(result.stdout, 'git')).toMatch(/\[ok {2}\] git +git version/);
    expect(result.stdout).toMatch(/ripgrep/);
    expect(result.stdout).toMatch(/bubblewrap sandbox/);
    // The probe is one cheap request, with the key, to the configured base URL.
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models']);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(line(result.stdout, 'folder trust')).toContain('not trusted');
    // Once the person trusted it (the record in the agent home), doctor says so and by what.
    await mkdir(sandbox.home, { recursive: true });
    await writeFile(
      join(sandbox.home, 'trusted-folders.json'),
      JSON.stringify({ version: 1, folders: [await realpath(sandbox.workDir)] }),
    );
    const trusted = await sandbox.run(['doctor']);
    expect(line(trusted.stdout, 'folder trust')).toContain('trusted, by the trust record in the home');
    expect(result.stdout).toContain('All essential checks passed.');
    expect(result.code).toBe(0);
  });

  it('fails (exit 1) when the server refuses the key, and says the key came from KIMI_API_KEY', async () => {
    const server = await modelServer(401);
    const sandbox = await cli.createSandbox({ baseUrl: `${server.url}/v1`, apiKey: '' });
    const result = await sandbox.run(['doctor'], {
      env: { KIMI_API_KEY: KEY, KIMI_TS_PROVIDER_TYPE: 'kimi' },
    });
    expect(result.code).toBe(1);
    expect(result.stdout).not.toContain(KEY);
    expect(line(result.stdout, 'API key')).toContain('the environment variable KIMI_API_KEY');
    expect(line(result.stdout, 'model reachable')).toContain('HTTP 401: the server refused the API key');
    expect(result.stdout).toContain('essential check failed: model reachable');
  });

  it('says what failed when the model cannot be reached', async () => {
    const server = await modelServer(200);
    const url = `${server.url}/v1`;
    await server.close();
    const sandbox = await cli.createSandbox({ baseUrl: url });
    const result = await sandbox.run(['doctor']);
    expect(result.code).toBe(1);
    expect(line(result.stdout, 'model reachable')).toContain('ECONNREFUSED');
  });

  it('without a model names kimi-ts login', async () => {
    const sandbox = await cli.createSandbox({ baseUrl: 'http://127.0.0.1:9/v1' });
    const empty = join(sandbox.root, 'empty.toml');
    await writeFile(empty, '');
    const result = await sandbox.run(['--config-file', empty, 'doctor'], { bare: true });
    expect(result.code).toBe(1);
    expect(line(result.stdout, 'model')).toContain('kimi-ts login');
    expect(line(result.stdout, 'config')).toContain(empty);
  });
});

describe('kimi-ts info', () => {
  it('gives the config path, the home and the default model', async () => {
    const sandbox = await cli.createSandbox({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: KEY });
    const result = await sandbox.run(['info', '--json']);
    expect(result.code).toBe(0);
    const info = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(info).toMatchObject({
      config_file: sandbox.configFile,
      home: sandbox.home,
      default_model: 'e2e',
      wire_protocol_version: '1.10',
    });
    expect(result.stdout).not.toContain(KEY);
  });
});
