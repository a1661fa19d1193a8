import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CommandSandbox,
  createCommandSandbox,
  type SandboxContext,
  type SandboxSettings,
  SandboxUnavailableError,
} from './sandbox.js';

let root: string;
let context: SandboxContext;
let server: Server;
let port: number;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-sandbox-'));
  const userHome = join(root, 'home');
  await mkdir(join(userHome, '.ssh'), { recursive: true });
  await writeFile(join(userHome, '.ssh', 'id_rsa'), 'PRIVATE KEY');
  await writeFile(join(userHome, '.netrc'), 'machine x password y');
  // The worst case: the agent runs in the user's home, its own folder and the keys inside the workspace.
  await mkdir(join(userHome, '.kimi-ts'));
  await writeFile(join(userHome, '.kimi-ts', 'config.toml'), 'api_key = "k"');
  await mkdir(join(root, 'extra'));
  await mkdir(join(root, 'outside'));
  context = {
    workDir: userHome,
    additionalDirs: () => [join(root, 'extra')],
    userHome,
    kimiHome: join(userHome, '.kimi-ts'),
    path: process.env.PATH,
  };
  server = createServer((socket) => socket.end('hello from outside\n'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(root, { recursive: true, force: true });
});

function sandboxed(settings: SandboxSettings): CommandSandbox {
  const sandbox = createCommandSandbox(settings, context);
  if (!sandbox) throw new Error('expected a sandbox');
  return sandbox;
}

/** Runs `bash -c script` in the sandbox (in the work dir); stdout+stderr and the exit code. */
function runIn(sandbox: CommandSandbox, script: string): Promise<{ code: number; output: string }> {
  const [file, ...args] = sandbox.prefix(context.workDir) as [string, ...string[]];
  return new Promise((resolve) => {
    execFile(file, [...args, '/bin/bash', '-c', script], { encoding: 'utf8' }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, output: stdout + stderr });
    });
  });
}

describe('the command sandbox (real bubblewrap)', () => {
  const workspaceWrite: SandboxSettings = { mode: 'workspace-write', network: false };

  it('is null when off', () => {
    expect(createCommandSandbox({ mode: 'off', network: false }, context)).toBeNull();
  });

  it('lets a command write in the workspace and add-dirs, and nowhere else', async () => {
    const sandbox = sandboxed(workspaceWrite);
    expect((await runIn(sandbox, 'echo ok > inside.txt && echo ok > ../extra/added.txt')).code).toBe(0);
    expect((await runIn(sandbox, 'cat inside.txt')).output).toBe('ok\n');
    expect(existsSync(join(context.workDir, 'inside.txt'))).toBe(true);
    expect(existsSync(join(root, 'extra', 'added.txt'))).toBe(true);
    // Outside the workspace: read-only where the host's files show, absent in the private /tmp.
    const system = await runIn(sandbox, 'echo evil > /etc/kimi-ts-sandbox-evil');
    expect(system.code).not.toBe(0);
    expect(system.output).toContain('Read-only file system');
    expect(existsSync('/etc/kimi-ts-sandbox-evil')).toBe(false);
    const outside = await runIn(sandbox, `echo evil > ${join(root, 'outside', 'evil.txt')}`);
    expect(outside.code).not.toBe(0);
    expect(existsSync(join(root, 'outside', 'evil.txt'))).toBe(false);
  });

  it('gives a private /tmp', async () => {
    const sandbox = sandboxed(workspaceWrite);
    expect((await runIn(sandbox, 'echo t > /tmp/sandbox-private && cat /tmp/sandbox-private')).output).toBe(
      't\n',
    );
    expect(existsSync('/tmp/sandbox-private')).toBe(false);
  });

  it('hides the credential folders and the agent home', async () => {
    const sandbox = sandboxed(workspaceWrite);
    const ssh = await runIn(
      sandbox,
      `ls -A ${join(context.userHome, '.ssh')}; cat ${join(context.userHome, '.ssh', 'id_rsa')}`,
    );
    expect(ssh.output).not.toContain('PRIVATE KEY');
    expect(ssh.output).toContain('No such file or directory');
    expect((await runIn(sandbox, 'cat .netrc')).output).not.toContain('password');
    // Hidden, not deleted: the files are still there outside.
    expect(existsSync(join(context.userHome, '.ssh', 'id_rsa'))).toBe(true);
    expect((await runIn(sandbox, `ls -A ${context.kimiHome}`)).output).toBe('');
  });

  it('has no network unless allowed', async () => {
    const connect = `exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3`;
    const offline = await runIn(sandboxed(workspaceWrite), connect);
    expect(offline.code).not.toBe(0);
    expect(offline.output).not.toContain('hello from outside');
    const online = await runIn(sandboxed({ mode: 'workspace-write', network: true }), connect);
    expect(online.output).toContain('hello from outside');
  });

  it('makes the workspace read-only in read-only mode', async () => {
    const sandbox = sandboxed({ mode: 'read-only', network: false });
    const write = await runIn(sandbox, 'echo x > ro.txt');
    expect(write.code).not.toBe(0);
    expect(existsSync(join(context.workDir, 'ro.txt'))).toBe(false);
    expect((await runIn(sandbox, 'ls')).code).toBe(0);
  });

  it('refuses to start without bubblewrap, naming the package, and off Linux', () => {
    expect(() => createCommandSandbox(workspaceWrite, { ...context, path: '' })).toThrow(
      SandboxUnavailableError,
    );
    expect(() => createCommandSandbox(workspaceWrite, { ...context, path: '' })).toThrow(
      /package `bubblewrap`/,
    );
    expect(() => createCommandSandbox(workspaceWrite, { ...context, platform: 'darwin' })).toThrow(
      /not available on darwin/,
    );
  });
});
