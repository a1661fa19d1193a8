import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { pathWithoutBwrap } from '../support/no-bwrap-path.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { toolResults } from '../support/stream-json.js';

/**
 * The sandbox is on by default (no flag): a hostile model in print mode tries to read the agent's
 * environment, its config and the person's keys, to reach a host UNIX socket, to plant git hooks
 * that run later outside any sandbox, and to write or run outside the sandbox.
 */

const cli = useScriptedCli();
const run = promisify(execFile);

const AGENT_SECRET = 'sk-e2e-agent-env-secret-4711';
const CONFIG_KEY = 'sk-e2e-config-key-9876';
const reversed = (text: string) => [...text].reverse().join('');

const shell = (id: string, command: string, extra: Record<string, unknown> = {}) => ({
  toolCalls: [{ id, name: 'Shell', args: { command, ...extra } }],
});

// `/proc` is built by the command: the policy refuses a command naming `/proc/<pid>/environ` as a
// secret read before it runs, and what these tests judge is the sandbox behind it.
const STEAL_ENVIRONMENT =
  "d=$(printf '/%s' proc); tr '\\0' '\\n' < $d/$PPID/environ | rev; for f in $d/[0-9]*/environ; do tr '\\0' '\\n' < \"$f\"; done | rev; echo stolen-env-done";

async function gitRepo(dir: string): Promise<void> {
  await run('git', ['init', '-q', '.'], { cwd: dir });
  await run('git', ['config', 'user.email', 't@t'], { cwd: dir });
  await run('git', ['config', 'user.name', 't'], { cwd: dir });
  await run('git', ['commit', '-q', '--allow-empty', '-m', 'init'], { cwd: dir });
}

describe('the sandbox, on by default in print mode', () => {
  it('hides the agent environment, its config, the keys; refuses UNIX sockets; protects .git; refuses leaving', async () => {
    const { server, sandbox } = await cli.setup([], { apiKey: CONFIG_KEY });
    const home = sandbox.root; // HOME of the CLI
    await mkdir(join(home, '.ssh'));
    await writeFile(join(home, '.ssh', 'id_ed25519'), 'PRIVATE-KEY-BYTES');
    await writeFile(join(sandbox.home, 'config.toml'), `api_key = "${CONFIG_KEY}"\n`);
    await mkdir(join(sandbox.root, 'outside'));
    await gitRepo(sandbox.workDir);
    const socketPath = join(sandbox.workDir, 'daemon.sock');
    const daemon = createServer((socket) => socket.end('daemon-secret-reply\n'));
    await new Promise<void>((resolve) => daemon.listen(socketPath, resolve));
    cli.defer(() => new Promise((resolve) => daemon.close(resolve)));
    const pwned = join(sandbox.root, 'pwned');
    server.push(
      shell('e1', STEAL_ENVIRONMENT),
      shell(
        'c1',
        // The paths are built at run time, so the policy's secret-argument check cannot see them
        // (it reads `k=id_ed25519`, `d=.ssh; ~/$d` and `$KIMI_TS_HOME/…` as naming secrets; a name
        // printf makes it cannot read): what keeps them out of reach here is the sandbox.
        `d=$(printf '.ss%s' h); c=$(printf 'conf%s' ig); k=$(printf 'i\\x64_ed25519'); h=$(printenv KIMI_TS_HOME); rev "$h/$c.toml"; rev ${sandbox.configFile.replace(/config\.toml$/, '$c.toml')}; ls -A ~/$d; rev ~/$d/$k; echo read-done`,
      ),
      shell(
        's1',
        `python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('${socketPath}'); print(s.recv(100).decode())"`,
      ),
      shell(
        'g1',
        `printf '#!/bin/sh\\ntouch ${pwned}\\n' > .git/hooks/pre-commit; chmod +x .git/hooks/pre-commit; git config core.fsmonitor 'touch ${pwned}; false'; echo planted`,
      ),
      {
        toolCalls: [
          {
            id: 'w1',
            name: 'WriteFile',
            args: { path: join(sandbox.root, 'outside', 'evil.txt'), content: 'x' },
          },
        ],
      },
      shell('o1', `echo escaped > ${join(sandbox.root, 'outside', 'escaped.txt')}`, {
        sandbox: 'off',
        justification: 'needs to write outside',
      }),
      { text: 'done' },
    );
    const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go'], {
      env: { OPENAI_API_KEY: AGENT_SECRET },
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const [environment, reads, socket, git, writeOutside, leave] = toolResults(result.stdout);
    expect(environment).toContain('stolen-env-done');
    expect(reads).toContain('read-done');
    expect(socket).toContain('Operation not permitted');
    expect(git).toContain('Read-only file system');
    expect(writeOutside).toContain('outside what the sandbox lets anything write');
    expect(leave).toContain('Running a command outside the sandbox needs a person');
    // Nothing the model saw holds a secret, plain or reversed.
    const seen = JSON.stringify(server.requests.map((request) => request.body));
    for (const secret of [AGENT_SECRET, CONFIG_KEY, 'PRIVATE-KEY-BYTES', 'daemon-secret-reply']) {
      expect(seen).not.toContain(secret);
      expect(seen).not.toContain(reversed(secret));
    }
    expect(existsSync(join(sandbox.root, 'outside', 'evil.txt'))).toBe(false);
    expect(existsSync(join(sandbox.root, 'outside', 'escaped.txt'))).toBe(false);
    // The person's git afterwards runs nothing the model planted.
    await run('git', ['status'], { cwd: sandbox.workDir });
    await run('git', ['commit', '-q', '--allow-empty', '-m', 'person'], { cwd: sandbox.workDir });
    expect(existsSync(pwned)).toBe(false);
  });

  it('--sandbox off: the same command reaches the agent environment (the check above can fail)', async () => {
    const { server, sandbox } = await cli.setup([shell('e1', STEAL_ENVIRONMENT), { text: 'done' }]);
    const result = await sandbox.run(
      ['--sandbox', 'off', '--print', '--output-format', 'stream-json', '-p', 'go'],
      {
        env: { OPENAI_API_KEY: AGENT_SECRET },
      },
    );
    expect(result.code).toBe(0);
    expect(JSON.stringify(server.requests[1]?.body)).toContain(reversed(AGENT_SECRET));
  });

  it('a symlink in the workspace does not take a file write out of the sandbox', async () => {
    const { server, sandbox } = await cli.setup([]);
    await mkdir(join(sandbox.root, 'outside'));
    await symlink(join(sandbox.root, 'outside'), join(sandbox.workDir, 'notes'));
    await mkdir(join(sandbox.workDir, '.kimi-ts'));
    server.push(
      { toolCalls: [{ id: 'w1', name: 'WriteFile', args: { path: 'notes/plan.md', content: 'x' } }] },
      {
        toolCalls: [
          { id: 'w2', name: 'WriteFile', args: { path: '.kimi-ts/permissions.toml', content: 'x' } },
        ],
      },
      { toolCalls: [{ id: 'w3', name: 'WriteFile', args: { path: 'ok.md', content: 'fine' } }] },
      { text: 'done' },
    );
    const result = await sandbox.run(['--yolo', '--print', '--output-format', 'stream-json', '-p', 'go']);
    expect(result.code).toBe(0);
    const [viaLink, rules, inside] = toolResults(result.stdout);
    expect(viaLink).toContain('outside what the sandbox lets anything write');
    // The rules file is refused twice over: as the agent's own configuration first.
    expect(rules).toContain('it configures the agent');
    expect(inside).not.toContain('sandbox');
    expect(existsSync(join(sandbox.root, 'outside', 'plan.md'))).toBe(false);
    expect(existsSync(join(sandbox.workDir, '.kimi-ts', 'permissions.toml'))).toBe(false);
    expect(existsSync(join(sandbox.workDir, 'ok.md'))).toBe(true);
  });
});

describe('where the sandbox cannot run (no bubblewrap on PATH)', () => {
  it('says so once with the fix; runs the read-only set; refuses the rest in print mode unless --sandbox off', async () => {
    const { server, sandbox } = await cli.setup([]);
    await writeFile(join(sandbox.workDir, 'a.txt'), 'hello-a');
    const PATH = await pathWithoutBwrap(sandbox);
    server.push(shell('r1', 'cat a.txt'), shell('t1', 'touch ran.txt'), { text: 'done' });
    const refused = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go'], {
      env: { PATH },
    });
    expect(refused.code).toBe(0);
    expect(refused.stderr.match(/The command sandbox is not running/g)).toHaveLength(1);
    expect(refused.stderr).toContain('bubblewrap');
    expect(refused.stderr).toContain('sudo apt-get install bubblewrap');
    const [readOnly, other] = toolResults(refused.stdout);
    expect(readOnly).toContain('hello-a');
    expect(other).toContain('cannot run on this machine');
    expect(existsSync(join(sandbox.workDir, 'ran.txt'))).toBe(false);

    server.push(shell('t2', 'touch ran.txt'), { text: 'done' });
    const off = await sandbox.run(
      ['--sandbox', 'off', '--print', '--output-format', 'stream-json', '-p', 'go'],
      {
        env: { PATH },
      },
    );
    expect(off.code).toBe(0);
    expect(off.stderr).not.toContain('sandbox');
    expect(existsSync(join(sandbox.workDir, 'ran.txt'))).toBe(true);
  });
});

describe('leaving the sandbox is the person’s call (line shell)', () => {
  it('asks with the reason shown, even in yolo; approved runs outside, rejected does not', async () => {
    const { sandbox } = await cli.setup([]);
    await mkdir(join(sandbox.root, 'outside'));
    const target = (name: string) => join(sandbox.root, 'outside', name);
    cli.server.push(
      shell('o1', `echo out > ${target('approved.txt')}`, {
        sandbox: 'off',
        justification: 'writes the release notes next to the repo',
      }),
      { text: 'wrote it' },
      shell('o2', `echo out > ${target('rejected.txt')}`, { sandbox: 'off', justification: 'again' }),
      { text: 'understood' },
      shell('i1', `echo in > ${target('inside.txt')}`),
      { text: 'tried inside' },
    );
    const input = ['first', '1', 'second', '3', 'third', '/exit'].join('\n');
    const result = await sandbox.run(['--ui', 'line', '--yolo'], { input: `${input}\n` });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('OUTSIDE the sandbox');
    expect(result.stdout).toContain('writes the release notes next to the repo');
    expect(result.stdout.match(/approve\? /g)).toHaveLength(2);
    expect(existsSync(target('approved.txt'))).toBe(true);
    expect(existsSync(target('rejected.txt'))).toBe(false);
    // yolo approves commands in the sandbox unasked, and the sandbox keeps them in.
    expect(existsSync(target('inside.txt'))).toBe(false);
  });
});

describe('/status says what the sandbox does', () => {
  it('on by default, off with --sandbox off', async () => {
    const { sandbox } = await cli.setup([]);
    const on = await sandbox.run(['--print', '-p', '/status']);
    expect(on.code).toBe(0);
    expect(on.stdout).toContain(
      'Sandbox: on (workspace-write): workspace and add-dirs writable (not .git, .kimi-ts), no network, no UNIX sockets',
    );
    const off = await sandbox.run(['--sandbox', 'off', '--print', '-p', '/status']);
    expect(off.stdout).toContain('Sandbox: off (--sandbox off)');
  });
});
