import { execFile } from 'node:child_process';
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { CliSandbox } from './run-cli.js';

const run = promisify(execFile);

/** Tools every run without bubblewrap needs (the shell, node, a few readers). */
const BASE_TOOLS = ['bash', 'sh', 'ls', 'touch', 'cat', 'env', 'node'];

/** A PATH with the tools the tests need but no bwrap: the sandbox cannot run there. */
export async function pathWithoutBwrap(sandbox: CliSandbox, extra: readonly string[] = []): Promise<string> {
  const bin = join(sandbox.root, 'bin-without-bwrap');
  await mkdir(bin);
  for (const tool of [...BASE_TOOLS, ...extra]) {
    const { stdout } = await run('bash', ['-c', `command -v ${tool}`]);
    await symlink(stdout.trim(), join(bin, tool));
  }
  return bin;
}
