import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CommandSandbox, createCommandSandbox, type SandboxContext } from './sandbox.js';

// Run by root, bwrap keeps every capability for the command unless told otherwise: with
// CAP_SYS_ADMIN a command could unmount what hides a secret or remount `/` writable. Only root can
// show it (any other user's command has no capabilities in the sandbox to begin with).
const asRoot = process.getuid?.() === 0;

let root: string;
let context: SandboxContext;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-sandbox-root-'));
  const userHome = join(root, 'home');
  await mkdir(join(userHome, '.ssh'), { recursive: true });
  await writeFile(join(userHome, '.ssh', 'id_rsa'), 'PRIVATE KEY');
  await mkdir(join(root, 'work'));
  context = {
    workDir: join(root, 'work'),
    additionalDirs: () => [],
    userHome,
    kimiHome: join(root, 'agent-home'),
    path: process.env.PATH,
  };
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function sandboxed(): CommandSandbox {
  const state = createCommandSandbox({ mode: 'workspace-write', network: false }, context);
  if (state.kind !== 'on') throw new Error(`expected a sandbox, got ${state.kind}`);
  return state.sandbox;
}

async function runIn(sandbox: CommandSandbox, script: string): Promise<string> {
  const argv: string[] = [...(await sandbox.prefix(context.workDir)), '/bin/bash', '-c', script];
  const [file, ...args] = argv as [string, ...string[]];
  const output = await new Promise<string>((resolve) => {
    execFile(file, args, { encoding: 'utf8', cwd: context.workDir }, (_error, stdout, stderr) =>
      resolve(stdout + stderr),
    );
  });
  await sandbox.commandEnded();
  return output;
}

describe.skipIf(!asRoot)('the sandbox run by root (real bubblewrap)', () => {
  it('leaves the command no capabilities', async () => {
    const sandbox = sandboxed();
    expect(await runIn(sandbox, 'grep CapEff /proc/self/status')).toMatch(/^CapEff:\s+0+\s*$/m);
    sandbox.dispose();
  });

  it('a command cannot unmount a hidden folder, nor remount / writable and write outside', async () => {
    const sandbox = sandboxed();
    const ssh = join(context.userHome, '.ssh');
    const outside = join(root, 'written-from-the-sandbox');
    const output = await runIn(
      sandbox,
      // The home is under the host's /tmp, behind the sandbox's private /tmp: that goes first.
      `umount -l /tmp; umount -l ${ssh}; cat ${join(ssh, 'id_rsa')}; mount -o remount,rw /; echo x > ${outside}; echo ran`,
    );
    expect(output).toContain('ran');
    expect(output).not.toContain('PRIVATE KEY');
    expect(existsSync(outside)).toBe(false);
    sandbox.dispose();
  });
});
