import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorResponder, LoopbackServer } from '../support/loopback-server.js';
import { useScriptedCli } from '../support/scripted-cli.js';

const ENV_KEY = 'sk-env-secret-4f9a1c77d2';
const CONFIG_KEY = 'sk-config-secret-88b3e0aa1f';

const cli = useScriptedCli();

/** Every file under `dir`, as text. */
async function allText(dir: string): Promise<string> {
  let text = '';
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) text += await readFile(join(entry.parentPath, entry.name), 'utf8');
  }
  return text;
}

describe('hole 6: the keys never leave', () => {
  it('keeps KIMI_API_KEY and the config key out of commands, results, the model and the session files', async () => {
    const { server, sandbox } = await cli.setup(
      [
        {
          toolCalls: [
            {
              id: 's1',
              name: 'Shell',
              args: { command: 'echo "env-key=[$KIMI_API_KEY]"; env | grep -c secret || true' },
            },
          ],
        },
        // The config file sits outside the work dir; a command naming it (or building its name from
        // a variable it assigns) is a secret read (refused here), but one that builds its name at run
        // time still prints it: redaction catches the key.
        {
          toolCalls: [{ id: 's2', name: 'Shell', args: { command: 'f=$(printf ../conf); cat "$f"ig.toml' } }],
        },
        {
          toolCalls: [{ id: 's3', name: 'Shell', args: { command: `echo ${CONFIG_KEY} > leaked.txt` } }],
        },
        { text: 'done' },
      ],
      { apiKey: CONFIG_KEY },
    );
    // Unsandboxed, so the command can read the config file (the sandbox hides it: sandbox-default.test.ts).
    const result = await sandbox.run(
      ['--sandbox', 'off', '--print', '--output-format', 'stream-json', '-p', 'go'],
      {
        env: { KIMI_API_KEY: ENV_KEY },
      },
    );
    expect(result.code).toBe(0);
    const toolResults = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { role: string; content: unknown })
      .filter((message) => message.role === 'tool')
      .map((message) => JSON.stringify(message.content));
    expect(toolResults).toHaveLength(3);
    // The command ran without the variable, and no variable held a secret.
    expect(toolResults[0]).toContain('env-key=[]');
    expect(toolResults[0]).toMatch(/\\n0\\n/);
    // The file's key came back redacted.
    expect(toolResults[1]).toContain('api_key = \\"[redacted]\\"');
    // A call carrying the key was refused before it ran.
    expect(toolResults[2]).toContain('its arguments contain a secret (providers.local.api_key)');
    expect(existsSync(join(sandbox.workDir, 'leaked.txt'))).toBe(false);

    const everything = result.stdout + result.stderr + (await allText(sandbox.home));
    for (const key of [ENV_KEY, CONFIG_KEY]) {
      expect(everything).not.toContain(key);
      for (const request of server.requests) expect(JSON.stringify(request.body)).not.toContain(key);
    }
  });

  it('gives a plugin tool the key its inject names and no other secret', async () => {
    const { sandbox } = await cli.setup(
      [{ toolCalls: [{ id: 'p1', name: 'envcheck', args: {} }] }, { text: 'checked' }],
      { apiKey: CONFIG_KEY },
    );
    const source = join(sandbox.root, 'envcheck-src');
    await mkdir(source);
    await writeFile(
      join(source, 'plugin.json'),
      JSON.stringify({
        name: 'envcheck',
        version: '1.0.0',
        config_file: 'config.json',
        inject: { PLUGIN_KEY: 'api_key' },
        tools: [{ name: 'envcheck', command: [process.execPath, 'check.js'] }],
      }),
    );
    await writeFile(join(source, 'config.json'), '{}');
    await writeFile(
      join(source, 'check.js'),
      "const env = process.env;\nconsole.log('kimi=' + (env.KIMI_API_KEY ?? 'unset') + ' injected=' + (env.PLUGIN_KEY ? 'set' : 'unset'));\n",
    );
    const installed = await sandbox.run(['plugin', 'install', source, '--config-file', sandbox.configFile], {
      bare: true,
    });
    expect(installed.stderr).toBe('');
    const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'check'], {
      env: { KIMI_API_KEY: ENV_KEY },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('kimi=unset injected=set');
  });

  it('gives hook commands no key, and redacts a key quoted in a provider error', async () => {
    const provider = await LoopbackServer.start();
    provider.fallback = errorResponder(401, {
      error: { message: `Incorrect API key provided: ${CONFIG_KEY}`, type: 'invalid_request_error' },
    });
    try {
      const hookOut = join(
        await import('node:os').then((os) => os.tmpdir()),
        `kimi-ts-hook-env-${process.pid}`,
      );
      const sandbox = await cli.createSandbox({
        baseUrl: `${provider.url}/v1`,
        apiKey: CONFIG_KEY,
        extraToml: ['[[hooks]]', 'event = "UserPromptSubmit"', `command = "env > ${hookOut}"`].join('\n'),
      });
      const result = await sandbox.run(['--print', '-p', 'hello'], { env: { KIMI_API_KEY: ENV_KEY } });
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain('Incorrect API key provided: [redacted]');
      const hookEnv = await readFile(hookOut, 'utf8');
      await import('node:fs/promises').then((fs) => fs.rm(hookOut, { force: true }));
      expect(hookEnv).toContain('KIMI_TS_HOME=');
      expect(hookEnv).not.toContain(ENV_KEY);
      expect(hookEnv).not.toContain('KIMI_API_KEY');
      expect(result.stderr + result.stdout + (await allText(sandbox.home))).not.toContain(CONFIG_KEY);
    } finally {
      await provider.close();
    }
  });

  it('kimi-ts export redacts a key even from a session written before it was known', async () => {
    const { sandbox } = await cli.setup([{ text: 'noted' }]);
    // The key reaches the file while kimi-ts does not know it as a secret yet.
    const first = await sandbox.run(['--print', '-p', `remember ${ENV_KEY}`]);
    expect(first.code).toBe(0);
    expect(await allText(join(sandbox.home, 'sessions'))).toContain(ENV_KEY);
    const exported = await sandbox.run(['export', '-w', sandbox.workDir], {
      bare: true,
      env: { KIMI_API_KEY: ENV_KEY },
    });
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain('remember [redacted]');
    expect(exported.stdout).not.toContain(ENV_KEY);
  });
});
