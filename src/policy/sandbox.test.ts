import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CommandSandbox,
  createCommandSandbox,
  type SandboxContext,
  type SandboxSettings,
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
  await mkdir(join(userHome, '.docker'), { recursive: true });
  await writeFile(join(userHome, '.docker', 'config.json'), '{"auths":{"x":{"auth":"docker-token"}}}');
  await writeFile(join(userHome, '.vault-token'), 'vault-token-value');
  // The worst case: the agent runs in the user's home, its own folder and the keys inside the workspace.
  await mkdir(join(userHome, '.kimi-ts'));
  await writeFile(join(userHome, '.kimi-ts', 'config.toml'), 'api_key = "k"');
  await mkdir(join(userHome, 'project'));
  await mkdir(join(root, 'extra'));
  await mkdir(join(root, 'outside'));
  await writeFile(join(root, 'outside', 'custom-config.toml'), 'api_key = "from --config-file"');
  context = {
    workDir: userHome,
    additionalDirs: () => [join(root, 'extra')],
    userHome,
    kimiHome: join(userHome, '.kimi-ts'),
    configFiles: [join(root, 'outside', 'custom-config.toml')],
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

function sandboxed(settings: SandboxSettings, at: SandboxContext = context): CommandSandbox {
  const state = createCommandSandbox(settings, at);
  if (state.kind !== 'on') throw new Error(`expected a sandbox, got ${state.kind}`);
  return state.sandbox;
}

/** Runs `bash -c script` (in the sandbox unless null) in `cwd`; stdout+stderr and the exit code. */
async function runIn(
  sandbox: CommandSandbox | null,
  script: string,
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number; output: string }> {
  const cwd = options.cwd ?? context.workDir;
  const argv = [...((await sandbox?.prefix(cwd)) ?? []), '/bin/bash', '-c', script];
  const [file, ...args] = argv as [string, ...string[]];
  const result = await new Promise<{ code: number; output: string }>((resolve) => {
    execFile(file, args, { encoding: 'utf8', cwd, env: options.env }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, output: stdout + stderr });
    });
  });
  // As the Shell tool does: what the command left is read (and a git folder it made cleaned) before
  // the next command.
  await sandbox?.commandEnded();
  return result;
}

const workspaceWrite: SandboxSettings = { mode: 'workspace-write', network: false };

describe('the command sandbox (real bubblewrap)', () => {
  it('is off when off', () => {
    expect(createCommandSandbox({ mode: 'off', network: false }, context)).toEqual({ kind: 'off' });
  });

  it('lets a command write in the workspace and add-dirs, and nowhere else', async () => {
    const sandbox = sandboxed(workspaceWrite);
    // The work dir is the home here: its top stays read-only (sandbox-home.ts), its folders do not.
    expect((await runIn(sandbox, 'echo ok > project/inside.txt && echo ok > ../extra/added.txt')).code).toBe(
      0,
    );
    expect((await runIn(sandbox, 'cat project/inside.txt')).output).toBe('ok\n');
    expect(existsSync(join(context.workDir, 'project', 'inside.txt'))).toBe(true);
    expect(existsSync(join(root, 'extra', 'added.txt'))).toBe(true);
    const system = await runIn(sandbox, 'echo evil > /etc/kimi-ts-sandbox-evil');
    expect(system.code).not.toBe(0);
    expect(system.output).toContain('Read-only file system');
    expect(existsSync('/etc/kimi-ts-sandbox-evil')).toBe(false);
    await runIn(sandbox, `echo evil > ${join(root, 'outside', 'evil.txt')}`);
    expect(existsSync(join(root, 'outside', 'evil.txt'))).toBe(false);
  });

  it('for a worktree in the agent home: that worktree alone is writable, the rest of the home hidden', async () => {
    const worktree = join(context.kimiHome, 'worktrees', 'sess', 's1-1');
    await mkdir(worktree, { recursive: true });
    const sandbox = sandboxed(workspaceWrite).forWorkspace(worktree);
    const inside = await runIn(sandbox, 'echo w > made.txt && cat made.txt && ls ../../..', {
      cwd: worktree,
    });
    expect(inside.code).toBe(0);
    expect(inside.output).toBe('w\nworktrees\n');
    expect(existsSync(join(worktree, 'made.txt'))).toBe(true);
    // The session's work dir and add-dirs are no longer writable for it.
    await runIn(
      sandbox,
      `echo x > ${join(context.workDir, 'from-worktree.txt')}; echo x > ${join(root, 'extra', 'from-worktree.txt')}`,
      {
        cwd: worktree,
      },
    );
    expect(existsSync(join(context.workDir, 'from-worktree.txt'))).toBe(false);
    expect(existsSync(join(root, 'extra', 'from-worktree.txt'))).toBe(false);
    expect(
      (await runIn(sandbox, `cat ${join(context.kimiHome, 'config.toml')}`, { cwd: worktree })).code,
    ).not.toBe(0);
  });

  it('gives a private /tmp', async () => {
    const sandbox = sandboxed(workspaceWrite);
    expect((await runIn(sandbox, 'echo t > /tmp/sandbox-private && cat /tmp/sandbox-private')).output).toBe(
      't\n',
    );
    expect(existsSync('/tmp/sandbox-private')).toBe(false);
  });

  it('hides the credential files, the agent home and every config file it loaded', async () => {
    const sandbox = sandboxed(workspaceWrite);
    const home = context.userHome;
    const secrets = await runIn(
      sandbox,
      [
        `ls -A ${home}/.ssh`,
        `cat ${home}/.ssh/id_rsa`,
        `cat ${home}/.netrc ${home}/.docker/config.json ${home}/.vault-token`,
        `cat ${context.kimiHome}/config.toml`,
        `cat ${join(root, 'outside', 'custom-config.toml')}`,
        'echo done',
      ].join('; '),
    );
    expect(secrets.output).toContain('done');
    for (const secret of ['PRIVATE KEY', 'password', 'docker-token', 'vault-token-value', 'api_key'])
      expect(secrets.output).not.toContain(secret);
    expect(secrets.output).toContain('No such file or directory');
    // Hidden, not deleted: the files are still there outside.
    expect(existsSync(join(home, '.ssh', 'id_rsa'))).toBe(true);
    expect((await runIn(sandbox, `ls -A ${context.kimiHome}`)).output).toBe('');
  });

  it("keeps the agent's process and environment out of reach (its own PID namespace)", async () => {
    const sandbox = sandboxed(workspaceWrite);
    const [file, ...args] = (await sandbox.prefix(context.workDir)) as [string, ...string[]];
    const probe =
      'cat /proc/$PPID/environ; for f in /proc/[0-9]*/environ; do cat "$f"; done; echo; ls /proc | grep -c "^[0-9]"';
    // The agent: a process whose environment holds a key, starting the command with a clean one.
    const run = (argv: readonly string[]) =>
      new Promise<string>((resolve) => {
        execFile(
          '/bin/bash',
          ['-c', 'env -u AGENT_KEY "$@"; true', 'agent', ...argv, '/bin/bash', '-c', probe],
          { encoding: 'utf8', cwd: context.workDir, env: { ...process.env, AGENT_KEY: 'agent-secret-1234' } },
          // stderr first: the count is stdout's last line (inside, `$PPID` is 0 and its cat fails).
          (_error, stdout, stderr) => resolve(stderr + stdout),
        );
      });
    // Unsandboxed, the same command finds the key (so the check below can fail).
    expect(await run([])).toContain('agent-secret-1234');
    const inside = await run([file, ...args]);
    expect(inside).not.toContain('agent-secret-1234');
    // Only the command's own processes are there: bash and what it started.
    expect(Number(inside.trim().split('\n').at(-1))).toBeLessThan(5);
  });

  it('has no network unless allowed', async () => {
    const connect = `exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3`;
    const offline = await runIn(sandboxed(workspaceWrite), connect);
    expect(offline.code).not.toBe(0);
    expect(offline.output).not.toContain('hello from outside');
    const online = await runIn(sandboxed({ mode: 'workspace-write', network: true }), connect);
    expect(online.output).toContain('hello from outside');
  });

  it('refuses UNIX sockets: a host socket in the workspace, and an abstract one, even with the network on', async () => {
    const sandbox = sandboxed({ mode: 'workspace-write', network: true });
    expect(sandbox.blocksUnixSockets).toBe(true);
    const socketPath = join(context.workDir, 'agent.sock');
    const unix = createServer((socket) => socket.end('secret over unix\n'));
    await new Promise<void>((resolve) => unix.listen(socketPath, resolve));
    // Node pads an abstract name to the full address length; python3 binds it as written.
    const abstractName = `kimi-ts-test-${process.pid}`;
    const abstract = spawn('python3', [
      '-c',
      `import socket\ns=socket.socket(socket.AF_UNIX)\ns.bind('\\0${abstractName}')\ns.listen(4)\nprint('ready', flush=True)\nwhile True:\n  c,_=s.accept(); c.send(b'secret over abstract\\n'); c.close()`,
    ]);
    await new Promise<void>((resolve) => abstract.stdout.once('data', () => resolve()));
    try {
      const python = (address: string) =>
        `python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect(${address}); print(s.recv(100).decode())"`;
      const toFile = python(`'${socketPath}'`);
      const toAbstract = python(`'\\\\0${abstractName}'`);
      // Outside the sandbox both answer: the checks below can fail.
      expect((await runIn(null, toFile)).output).toContain('secret over unix');
      expect((await runIn(null, toAbstract)).output).toContain('secret over abstract');
      const viaFile = await runIn(sandbox, toFile);
      expect(viaFile.output).not.toContain('secret over unix');
      expect(viaFile.output).toContain('Operation not permitted');
      const viaAbstract = await runIn(sandbox, toAbstract);
      expect(viaAbstract.output).not.toContain('secret over abstract');
      expect(viaAbstract.output).toContain('Operation not permitted');
      // Other sockets and socketpair still work (the network is on here).
      const tcp = await runIn(sandbox, `exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3`);
      expect(tcp.output).toContain('hello from outside');
      const pair = await runIn(
        sandbox,
        `python3 -c "import socket; a,b=socket.socketpair(); a.send(b'ok'); print(b.recv(2).decode())"`,
      );
      expect(pair.output).toBe('ok\n');
    } finally {
      await new Promise((resolve) => unix.close(resolve));
      abstract.kill();
    }
  });

  it("does not show a socket in the host's /tmp at all", async () => {
    const hostSocket = join(tmpdir(), `kimi-ts-host-${process.pid}.sock`);
    const host = createServer((socket) => socket.end('host tmp secret\n'));
    await new Promise<void>((resolve) => host.listen(hostSocket, resolve));
    try {
      const connect = `python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('${hostSocket}'); print(s.recv(100).decode())"`;
      expect((await runIn(null, connect)).output).toContain('host tmp secret');
      const inside = await runIn(
        sandboxed({ mode: 'workspace-write', network: true }),
        `ls ${hostSocket}; ${connect}`,
      );
      expect(inside.output).not.toContain('host tmp secret');
      expect(inside.output).toContain('No such file or directory');
    } finally {
      await new Promise((resolve) => host.close(resolve));
    }
  });

  it('makes the workspace read-only in read-only mode', async () => {
    const sandbox = sandboxed({ mode: 'read-only', network: false });
    const write = await runIn(sandbox, 'echo x > ro.txt');
    expect(write.code).not.toBe(0);
    expect(existsSync(join(context.workDir, 'ro.txt'))).toBe(false);
    expect((await runIn(sandbox, 'ls')).code).toBe(0);
  });

  it('is unavailable without bubblewrap or off Linux, saying what to do', () => {
    const missing = createCommandSandbox(workspaceWrite, { ...context, path: '/nonexistent' });
    expect(missing).toMatchObject({ kind: 'unavailable' });
    if (missing.kind === 'unavailable') expect(missing.fix).toContain('apt-get install bubblewrap');
    const darwin = createCommandSandbox(workspaceWrite, { ...context, platform: 'darwin' });
    expect(darwin).toMatchObject({ kind: 'unavailable' });
    if (darwin.kind === 'unavailable') expect(darwin.problem).toContain('Linux only');
  });
});

describe('.git and .kimi-ts stay read-only in a writable workspace', () => {
  async function gitWorkspace(): Promise<SandboxContext> {
    const dir = await mkdtemp(join(root, 'repo-'));
    const git = (script: string) => runIn(null, script, { cwd: dir });
    await git(
      'git init -q . && git config user.email t@t && git config user.name t && git commit -q --allow-empty -m init',
    );
    return { ...context, workDir: dir, additionalDirs: () => [] };
  }

  it('a command cannot plant a hook or core.fsmonitor, and a later git status runs nothing', async () => {
    const at = await gitWorkspace();
    const sandbox = sandboxed(workspaceWrite, at);
    const pwned = join(root, `pwned-${Math.random().toString(36).slice(2)}`);
    const attack = await runIn(
      sandbox,
      [
        `printf '#!/bin/sh\\ntouch ${pwned}\\n' > .git/hooks/pre-commit; chmod +x .git/hooks/pre-commit`,
        `git config core.fsmonitor 'touch ${pwned}; false'`,
        'echo "../evil" > .git/commondir',
        'mv .git .git-moved',
        'echo tried',
      ].join('; '),
      { cwd: at.workDir },
    );
    expect(attack.output).toContain('tried');
    expect(attack.output).toContain('Read-only file system');
    // The workspace itself is writable.
    expect((await runIn(sandbox, 'echo fine > file.txt && cat file.txt', { cwd: at.workDir })).output).toBe(
      'fine\n',
    );
    // The person's git, later, outside any sandbox.
    const status = await runIn(
      null,
      'git status --short && git commit -q --allow-empty -m next && echo committed',
      {
        cwd: at.workDir,
      },
    );
    expect(status.output).toContain('committed');
    expect(existsSync(pwned)).toBe(false);
    expect(existsSync(join(at.workDir, '.git', 'hooks', 'pre-commit'))).toBe(false);
  });

  it("nested repositories' .git, gitfiles, the folders they name and a symlinked .git are read-only too", async () => {
    const at = await gitWorkspace();
    const dir = at.workDir;
    const setup = await runIn(
      null,
      [
        'git init -q sub',
        'git init -q --bare store && mkdir linked && ln -s ../store linked/.git',
        // A submodule-style gitfile naming a git folder elsewhere in the workspace.
        'git init -q --bare gitmods/mod && mkdir mod && echo "gitdir: ../gitmods/mod" > mod/.git',
        'git worktree add -q wt',
        'echo ok',
      ].join(' && '),
      { cwd: dir },
    );
    expect(setup.output).toContain('ok');
    const wtGitfile = await readFile(join(dir, 'wt', '.git'), 'utf8');
    const sandbox = sandboxed(workspaceWrite, at);
    const hook = "'#!/bin/sh\\ntouch pwned\\n'";
    const attack = await runIn(
      sandbox,
      [
        `printf ${hook} > sub/.git/hooks/post-checkout`,
        "git -C sub config core.fsmonitor 'touch pwned; false'",
        `printf ${hook} > linked/.git/hooks/post-commit`,
        `printf ${hook} > store/hooks/post-receive`,
        `printf ${hook} > gitmods/mod/hooks/post-checkout`,
        'echo "gitdir: ../evil" > mod/.git',
        'echo "gitdir: ../evil" > wt/.git',
        'echo tried',
      ].join('; '),
      { cwd: dir },
    );
    expect(attack.output).toContain('tried');
    expect(attack.output).toContain('Read-only file system');
    for (const planted of [
      'sub/.git/hooks/post-checkout',
      'store/hooks/post-commit',
      'store/hooks/post-receive',
      'gitmods/mod/hooks/post-checkout',
    ])
      expect(existsSync(join(dir, planted)), planted).toBe(false);
    expect(await readFile(join(dir, 'sub', '.git', 'config'), 'utf8')).not.toContain('fsmonitor');
    expect(await readFile(join(dir, 'mod', '.git'), 'utf8')).toBe('gitdir: ../gitmods/mod\n');
    expect(await readFile(join(dir, 'wt', '.git'), 'utf8')).toBe(wtGitfile);
    // The nested repository's work tree stays writable.
    expect((await runIn(sandbox, 'echo fine > sub/file.txt && cat sub/file.txt', { cwd: dir })).output).toBe(
      'fine\n',
    );
  });

  it('where .kimi-ts does not exist, a command cannot create it (an empty placeholder, gone at the end); a .git it makes is cleaned after it', async () => {
    const dir = await mkdtemp(join(root, 'plain-'));
    const at = { ...context, workDir: dir, additionalDirs: () => [] };
    const sandbox = sandboxed(workspaceWrite, at);
    // .kimi-ts is made when the sandbox is, so the workspace looks the same before and after a command.
    expect(await readdir(dir)).toEqual(['.kimi-ts']);
    const attack = await runIn(
      sandbox,
      'git init -q . && git config core.fsmonitor "touch pwned; false"; mkdir -p .kimi-ts; echo "[[permission.rules]]" > .kimi-ts/permissions.toml; echo tried',
      { cwd: dir },
    );
    expect(attack.output).toContain('tried');
    expect(existsSync(join(dir, '.kimi-ts', 'permissions.toml'))).toBe(false);
    expect(sandbox.takeNotes()).toContain('core.fsmonitor');
    expect(sandbox.takeNotes()).toBeNull();
    // git, outside, finds the repository the command made, with nothing in it that runs.
    expect(
      (await runIn(null, 'git status --porcelain; git rev-parse --git-dir 2>&1', { cwd: dir })).output,
    ).toBe('.git\n');
    expect(existsSync(join(dir, 'pwned'))).toBe(false);
    sandbox.dispose();
    expect(await readdir(dir)).toEqual(['.git']);
  });

  it('a command launched before the close keeps its placeholders until it ends (bwrap binds them as it starts)', async () => {
    const dir = await mkdtemp(join(root, 'kept-'));
    const sandbox = sandboxed(workspaceWrite, { ...context, workDir: dir, additionalDirs: () => [] });
    const other = sandbox.forWorkspace(dir);
    // Launched (a background command), then the session closes before bwrap has started.
    await sandbox.prefix(dir);
    sandbox.dispose();
    expect(await readdir(dir)).toEqual(['.kimi-ts']);
    // The command the bwrap below stands for starts now, after the close, and finds what it binds.
    const late = await runIn(other, 'echo started', { cwd: dir });
    expect(late.output).toBe('started\n');
    expect(await readdir(dir)).toEqual(['.kimi-ts']);
    await sandbox.commandEnded();
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('hidden paths inside hidden folders', () => {
  it('hides a loaded config file inside the agent home (no mount point needed in the hidden folder)', async () => {
    const at = { ...context, configFiles: [join(context.kimiHome, 'config.toml')] };
    const result = await runIn(sandboxed(workspaceWrite, at), `cat ${at.kimiHome}/config.toml; echo ran`);
    expect(result.output).toContain('ran');
    expect(result.output).not.toContain('api_key');
    expect(result.output).not.toContain('bwrap:');
  });
});
