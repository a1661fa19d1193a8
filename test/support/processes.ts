import { readdirSync, readFileSync } from 'node:fs';

/** A live process as /proc shows it (Linux). */
export interface ProcessInfo {
  pid: number;
  ppid: number;
  /** argv joined by spaces. */
  command: string;
}

function readProcess(pid: number): ProcessInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (in parentheses, which may hold spaces): state, ppid, ...
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (rest[0] === 'Z') return null;
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    return { pid, ppid: Number(rest[1]), command };
  } catch {
    return null;
  }
}

/** Every live (not zombie) process of this machine that /proc lets us read. */
export function liveProcesses(): ProcessInfo[] {
  const out: ProcessInfo[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const info = readProcess(Number(name));
    if (info) out.push(info);
  }
  return out;
}

/** Live processes whose environment holds `needle` (e.g. `GIT_DIR=<a sandbox's home>`). */
export function processesWithEnv(needle: string): ProcessInfo[] {
  return liveProcesses().filter((info) => {
    try {
      return readFileSync(`/proc/${info.pid}/environ`, 'utf8').includes(needle);
    } catch {
      return false;
    }
  });
}

/** Every live process below `pid` (its children, theirs, ...), as `pid command`. */
export function descendantsOf(pid: number): string[] {
  const processes = liveProcesses();
  const found: string[] = [];
  const walk = (parent: number) => {
    for (const info of processes) {
      if (info.ppid !== parent) continue;
      found.push(`${info.pid} ${info.command}`);
      walk(info.pid);
    }
  };
  walk(pid);
  return found;
}

/** Whether `pid` is alive (a zombie counts as gone: it runs nothing). */
export function isAlive(pid: number): boolean {
  return readProcess(pid) !== null;
}

/**
 * Resolves with the first value `probe` returns that is not null, looking every 10 ms (a process
 * appearing in /proc has no event to wait on); throws after `timeoutMs`.
 */
export async function waitForProcess<T>(probe: () => T | null, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = probe();
    if (found !== null) return found;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
