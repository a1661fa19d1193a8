import { execFile, execFileSync } from 'node:child_process';
import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CommandSandbox, createCommandSandbox, type SandboxContext } from './sandbox.js';
import { sandboxHost } from './sandbox-host.js';
import { seccompArch, unixSocketFilter } from './seccomp-filter.js';

/**
 * The seccomp program's file in `<home>/cache/sandbox/` is what every sandboxed command is filtered
 * by. Whatever was planted there (a symlink into the workspace, a FIFO, a folder that is a symlink)
 * must not let a sandboxed command change the filter of the next one, nor hang the start.
 */

let root: string;
let work: string;
let kimiHome: string;
let paths = 0;

/** A PATH not seen before in this process, so the per-process probe memo does not answer. */
const freshPath = () => `/nonexistent-${process.pid}-${++paths}:${process.env.PATH ?? ''}`;

const arch = seccompArch();
const programName = `unix-sockets-${arch}.bpf`;
/** One BPF instruction: return SECCOMP_RET_ALLOW — no filter at all. */
const ALLOW_ALL = Buffer.from([0x06, 0, 0, 0, 0, 0, 0xff, 0x7f]);

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-sandbox-program-'));
  work = join(root, 'work');
  kimiHome = join(root, 'home', '.kimi-ts');
  await mkdir(work, { recursive: true });
  await mkdir(join(kimiHome, 'cache', 'sandbox'), { recursive: true });
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function sandboxed(): CommandSandbox {
  const context: SandboxContext = {
    workDir: work,
    additionalDirs: () => [],
    userHome: join(root, 'home'),
    kimiHome,
    path: freshPath(),
  };
  const state = createCommandSandbox({ mode: 'workspace-write', network: false }, context);
  if (state.kind !== 'on') throw new Error(`expected a sandbox, got ${state.kind}`);
  return state.sandbox;
}

async function runIn(sandbox: CommandSandbox, script: string): Promise<string> {
  const argv = [...(await sandbox.prefix(work)), '/bin/bash', '-c', script];
  const [file, ...args] = argv as [string, ...string[]];
  const output = await new Promise<string>((resolve) => {
    execFile(file, args, { encoding: 'utf8', cwd: work }, (_error, stdout, stderr) =>
      resolve(stdout + stderr),
    );
  });
  sandbox.commandEnded();
  return output;
}

/** A UNIX socket in the workspace answering a secret, and whether a sandboxed command reaches it. */
async function reachesUnixSocket(sandbox: CommandSandbox): Promise<boolean> {
  const socketPath = join(work, 'agent.sock');
  const server = createServer((socket) => socket.end('secret over unix\n'));
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  try {
    const output = await runIn(
      sandbox,
      `python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('${socketPath}'); print(s.recv(100).decode())"`,
    );
    return output.includes('secret over unix');
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe.runIf(arch !== null)("the seccomp program's file, planted", () => {
  it('a symlink into the workspace: a sandboxed command cannot rewrite the next command’s filter', async () => {
    const inWork = join(work, 'filter.bpf');
    await writeFile(inWork, unixSocketFilter(arch ?? 'x64'));
    await symlink(inWork, join(kimiHome, 'cache', 'sandbox', programName));
    const sandbox = sandboxed();
    // The model's command, in the sandbox: the filter file it can write becomes "allow everything".
    await runIn(sandbox, `printf '\\006\\000\\000\\000\\000\\000\\377\\177' > filter.bpf`);
    expect(lstatSync(inWork).size).toBe(ALLOW_ALL.length);
    expect(await reachesUnixSocket(sandbox)).toBe(false);
  });

  it('the sandbox folder itself a symlink into the workspace: the program is not kept there', async () => {
    await rm(join(kimiHome, 'cache', 'sandbox'), { recursive: true });
    await mkdir(join(work, 'cache'));
    await symlink(join(work, 'cache'), join(kimiHome, 'cache', 'sandbox'));
    const sandbox = sandboxed();
    await runIn(sandbox, `printf '\\006\\000\\000\\000\\000\\000\\377\\177' > cache/${programName}`);
    expect(await reachesUnixSocket(sandbox)).toBe(false);
  });

  it('a FIFO: the start does not wait on it, and the program is written in its place', () => {
    const file = join(kimiHome, 'cache', 'sandbox', programName);
    execFileSync('mkfifo', [file]);
    const host = sandboxHost(freshPath(), 'linux', join(kimiHome, 'cache'));
    if (!host.available) throw new Error(host.problem);
    expect(host.seccompFile).not.toBeNull();
    const kept = realpathSync(host.seccompFile ?? '');
    expect(lstatSync(kept).isFile()).toBe(true);
  });
});

describe('bwrap found on PATH', () => {
  it('never from a relative PATH entry (`.`, `bin`): that is the workspace’s own program', async () => {
    // A PATH entry like `.` resolves against the folder the CLI runs in: the repository's `bwrap`.
    const bin = join(root, 'repo-bin');
    await mkdir(bin);
    const marker = join(root, 'RAN');
    await writeFile(join(bin, 'bwrap'), `#!/bin/sh\ntouch '${marker}'\nexit 0\n`, { mode: 0o755 });
    const relativeBin = relative(process.cwd(), bin);
    expect(isAbsolute(relativeBin)).toBe(false);
    const host = sandboxHost(`${relativeBin}:${freshPath()}`, 'linux', join(kimiHome, 'cache'));
    if (host.available) expect(isAbsolute(host.bwrap)).toBe(true);
    expect(existsSync(marker)).toBe(false);
  });
});
