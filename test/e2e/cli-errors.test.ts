import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LoopbackServer } from '../support/loopback-server.js';
import { TUI_READY } from '../support/tmux-terminal.js';
import { useTuiCli } from '../support/tui-cli.js';

const cli = useTuiCli();
const KEY = 'sk-refused-key-0815';

/** A model server that refuses every request with 401 and `body` (raw text), closed after the test. */
async function refusingServer(body: string): Promise<LoopbackServer> {
  const server = await LoopbackServer.start();
  cli.defer(() => server.close());
  server.fallback = (_req, res) => {
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(body);
  };
  return server;
}

describe('errors that say what to do', () => {
  it('a 401 names the provider, its base URL and the config key the key came from, never the key', async () => {
    const server = await refusingServer('"Invalid Authentication"');
    const sandbox = await cli.createSandbox({ baseUrl: `${server.url}/v1`, apiKey: KEY });
    const result = await sandbox.run(['--print', '-p', 'hi']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`HTTP 401 from provider "local" (openai_legacy) at ${server.url}/v1`);
    // The body is a JSON string: shown, not "(no body)".
    expect(result.stderr).toContain('the server said: Invalid Authentication');
    expect(result.stderr).not.toContain('no body');
    expect(result.stderr).toContain(`The key came from providers.local.api_key in ${sandbox.configFile}`);
    expect(result.stderr).toContain('kimi-ts login');
    expect(`${result.stdout}${result.stderr}`).not.toContain(KEY);
  });

  it('a 401 with the key from KIMI_API_KEY says so; a {"message": …} body is shown too', async () => {
    const server = await refusingServer('{"message":"key expired"}');
    const sandbox = await cli.createSandbox({ baseUrl: `${server.url}/v1`, apiKey: '' });
    const result = await sandbox.run(['--print', '-p', 'hi'], {
      env: { KIMI_API_KEY: KEY, KIMI_TS_PROVIDER_TYPE: 'kimi' },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the server said: key expired');
    expect(result.stderr).toContain('The key came from the environment variable KIMI_API_KEY');
    expect(`${result.stdout}${result.stderr}`).not.toContain(KEY);
  });

  it('the TUI shows the 401 without a "(step interrupted)" line before it', async () => {
    const server = await refusingServer('"Invalid Authentication"');
    await cli.createSandbox({ baseUrl: `${server.url}/v1`, apiKey: KEY });
    const tui = cli.startTui();
    await tui.waitFor(TUI_READY);
    tui.type('hello');
    tui.press('Enter');
    const screen = await tui.waitFor('the API key was refused');
    expect(screen).not.toContain('step interrupted');
    expect(screen).not.toContain(KEY);
  });

  it('without a model the TUI says how to set one up once, and one line per prompt naming kimi-ts login', async () => {
    const sandbox = await cli.createSandbox({ baseUrl: 'http://127.0.0.1:9/v1' });
    const empty = join(sandbox.root, 'empty.toml');
    await writeFile(empty, '');
    const tui = cli.startTui({ args: ['--config-file', empty] });
    await tui.waitFor(TUI_READY);
    for (const prompt of ['first', 'second']) {
      tui.type(prompt);
      tui.press('Enter');
    }
    await tui.waitUntil(
      (screen) => (screen.match(/No model is configured: run kimi-ts login/g) ?? []).length === 2,
      'two one-line answers',
    );
    const all = tui.history();
    expect(all.match(/Configure a model in one of/g)).toHaveLength(1);
    expect(all).toContain('kimi-ts login');
    expect(all).not.toContain('Error: LLM not set');
  });

  it('the line shell without a model also says the how-to once and one line per prompt', async () => {
    const sandbox = await cli.createSandbox({ baseUrl: 'http://127.0.0.1:9/v1' });
    const empty = join(sandbox.root, 'empty.toml');
    await writeFile(empty, '');
    const result = await sandbox.run(['--config-file', empty, '-w', sandbox.workDir, '--ui', 'line'], {
      bare: true,
      input: 'first\nsecond\n/exit\n',
    });
    expect(result.code).toBe(0);
    expect(result.stdout.match(/Configure a model in one of/g)).toHaveLength(1);
    expect(result.stdout.match(/No model is configured: run kimi-ts login/g)).toHaveLength(2);
  });
});
