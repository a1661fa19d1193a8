import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A temp dir for hook tests: executable scripts, FIFOs, and files hooks write to. */
export class HookSandbox {
  private constructor(readonly dir: string) {}

  static async create(): Promise<HookSandbox> {
    return new HookSandbox(await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-hooks-'))));
  }

  path(name: string): string {
    return join(this.dir, name);
  }

  /** Writes an executable `/bin/sh` script and returns its path, quoted for use as a hook command. */
  async script(name: string, body: string): Promise<string> {
    const file = this.path(name);
    await writeFile(file, `#!/bin/sh\n${body}\n`);
    await chmod(file, 0o755);
    return shellQuote(file);
  }

  /** A named pipe: opening it blocks until the other end is opened too. */
  fifo(name: string): string {
    const file = this.path(name);
    execFileSync('mkfifo', [file]);
    return file;
  }

  read(name: string): Promise<string> {
    return readFile(this.path(name), 'utf8');
  }

  async readPid(name: string): Promise<number> {
    return Number((await this.read(name)).trim());
  }

  async dispose(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}

export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * Whether a process has ended. A killed orphan may linger as a zombie when nothing reaps it (PID 1 in
 * a container often does not), so a zombie counts as gone.
 */
export async function isProcessGone(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // The state letter follows the command name, which is wrapped in parentheses.
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    try {
      process.kill(pid, 0);
      return false;
    } catch {
      return true;
    }
  }
}

/**
 * Polls until the condition holds; a condition outside our control (a signalled process being torn
 * down by the kernel) has no event to wait on. Fails after `deadlineMs`.
 */
export async function waitUntil(condition: () => Promise<boolean>, deadlineMs = 5000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error('condition not met before the deadline');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Kills a pid if it still runs; for test cleanup. */
export function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
