import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { methods } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { runEditor } from '../support/acp-editor.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { toolResults } from '../support/stream-json.js';

const cli = useScriptedCli();

const shell = (id: string, command: string) => ({ toolCalls: [{ id, name: 'Shell', args: { command } }] });

describe('the command sandbox through the CLI', () => {
  it('--sandbox: the workspace is writable, nothing else is, ~/.ssh is invisible, the network is off', async () => {
    const server = await cli.startServer([]);
    const port = new URL(server.baseUrl).port;
    server.push(
      shell('w1', 'echo in > inside.txt && cat inside.txt'),
      shell('w2', 'echo evil > /etc/kimi-ts-e2e-evil; echo evil > ../outside/evil.txt'),
      // The paths are made by printf and printenv: a command that names them plainly, even in an
      // assignment or as `$KIMI_TS_HOME`, is a secret read (refused before it runs); this one gets
      // past that check and meets the sandbox.
      shell(
        'k1',
        `f="$HOME/$(printf '.s\\x73h/i\\x64_rsa')"; cat "$f"; ls -A "$(printenv KIMI_TS_HOME)" | wc -l`,
      ),
      shell('n1', `exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected`),
      { text: 'done' },
    );
    const sandbox = await cli.createSandbox({ baseUrl: server.baseUrl });
    await mkdir(join(sandbox.root, '.ssh'));
    await writeFile(join(sandbox.root, '.ssh', 'id_rsa'), 'PRIVATE KEY');
    await mkdir(join(sandbox.root, 'outside'));
    const result = await sandbox.run(['--sandbox', '--print', '--output-format', 'stream-json', '-p', 'go'], {
      env: { KIMI_TS_HOME: sandbox.home },
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const [write, outside, keys, network] = toolResults(result.stdout);
    expect(write).toContain('in\\n');
    expect(existsSync(join(sandbox.workDir, 'inside.txt'))).toBe(true);
    expect(outside).toContain('Read-only file system');
    expect(existsSync('/etc/kimi-ts-e2e-evil')).toBe(false);
    expect(existsSync(join(sandbox.root, 'outside', 'evil.txt'))).toBe(false);
    expect(keys).not.toContain('PRIVATE KEY');
    expect(keys).toContain('No such file or directory');
    expect(network).not.toContain('connected');
    // Only the model's own requests reached the loopback server: none from the command.
    expect(server.requests).toHaveLength(5);
  });

  it('[sandbox] mode = "read-only" keeps even the workspace read-only', async () => {
    const { sandbox } = await cli.setup([shell('r1', 'echo x > ro.txt'), { text: 'done' }], {
      extraToml: '[sandbox]\nmode = "read-only"\n',
    });
    const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go']);
    expect(result.code).toBe(0);
    expect(toolResults(result.stdout)[0]).toContain('Read-only file system');
    expect(existsSync(join(sandbox.workDir, 'ro.txt'))).toBe(false);
  });

  it('refuses to start when bubblewrap is missing, naming the package, instead of running unsandboxed', async () => {
    const { server, sandbox } = await cli.setup([shell('m1', 'touch ran.txt'), { text: 'done' }]);
    const result = await sandbox.run(['--sandbox', '--print', '-p', 'go'], { env: { PATH: '/nonexistent' } });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('install the package `bubblewrap`');
    expect(existsSync(join(sandbox.workDir, 'ran.txt'))).toBe(false);
    expect(server.requests).toHaveLength(0);
  });

  it('runs plugin commands in the sandbox too', async () => {
    const { sandbox } = await cli.setup([
      { toolCalls: [{ id: 'p1', name: 'escape', args: {} }] },
      { text: 'done' },
    ]);
    const source = join(sandbox.root, 'escape-src');
    await mkdir(source);
    await writeFile(
      join(source, 'plugin.json'),
      JSON.stringify({
        name: 'escape',
        version: '1.0.0',
        tools: [
          {
            name: 'escape',
            command: [
              '/bin/bash',
              '-c',
              'echo evil > "$1"; echo tried',
              '_',
              join(sandbox.root, 'plugin-evil.txt'),
            ],
          },
        ],
      }),
    );
    const installed = await sandbox.run(['plugin', 'install', source, '--config-file', sandbox.configFile], {
      bare: true,
    });
    expect(installed.stderr).toBe('');
    const result = await sandbox.run(['--sandbox', '--print', '--output-format', 'stream-json', '-p', 'go']);
    expect(result.code).toBe(0);
    expect(toolResults(result.stdout)[0]).toContain('tried');
    expect(existsSync(join(sandbox.root, 'plugin-evil.txt'))).toBe(false);
  });
});

describe('the sandbox in an ACP editor', () => {
  it('keeps Shell in the sandbox even when the editor offers terminals', async () => {
    const { server, sandbox } = await cli.setup(
      [shell('a1', 'echo evil > /etc/kimi-ts-acp-evil; echo ran-here'), { text: 'done' }],
      { extraToml: '[sandbox]\nmode = "workspace-write"\n' },
    );
    const terminalsCreated: unknown[] = [];
    const { exitCode } = await runEditor(
      {
        sandbox,
        clientCapabilities: { terminal: true },
        handlers: (app) =>
          app.onRequest(methods.client.terminal.create, ({ params }) => {
            terminalsCreated.push(params);
            throw new Error('no terminals in this test');
          }),
      },
      async (ctx) => {
        const { sessionId } = await ctx.request(methods.agent.session.new, {
          cwd: sandbox.workDir,
          mcpServers: [],
        });
        return ctx.request(methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: 'text', text: 'go' }],
        });
      },
    );
    expect(exitCode).toBe(0);
    expect(terminalsCreated).toEqual([]);
    expect(existsSync('/etc/kimi-ts-acp-evil')).toBe(false);
    const toolMessage = JSON.stringify(
      (server.requests[1]!.body as { messages: { role: string; content: unknown }[] }).messages.filter(
        (m) => m.role === 'tool',
      ),
    );
    expect(toolMessage).toContain('ran-here');
    expect(toolMessage).toContain('Read-only file system');
  });
});
