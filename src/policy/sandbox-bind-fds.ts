import { closeSync, constants, fstatSync, openSync, readlinkSync, realpathSync } from 'node:fs';

/**
 * Bind sources passed to bwrap as open descriptors, not as paths. bwrap resolves a path source when
 * it mounts it, following symlinks (relative ones too): between the sandbox deciding on a folder and
 * bwrap mounting it, a process that can write in its parent (a background command of this session,
 * another session's command) could put a symlink there, and a writable bind would land on a folder
 * never approved, or a bind that shows a read-only workspace would show `~/.ssh` instead.
 *
 * So each source is opened here, right before the spawn, without following a symlink, checked to be
 * the very path the sandbox decided on (the kernel's own name for the opened object, which has no
 * symlink in it), and handed to bwrap as `--bind-fd N` / `--ro-bind-fd N`. Anything else — a
 * symlink in any component, a moved or missing folder, a FIFO — refuses the command.
 *
 * Cost per bind: one open, one fstat and one readlink of /proc/self/fd/N (microseconds each); the
 * descriptors live only from the open to the spawn, in one synchronous stretch.
 */

/** bwrap's descriptors: 0–2 stdio, 3 the seccomp program, bind sources from 4 on. */
export const FIRST_BIND_FD = 4;

/**
 * At most this many sources per command (a few per writable root, plus nested repositories' `.git`):
 * the descriptors one spawn holds for a moment stay well below the process's limit.
 */
export const MAX_BIND_SOURCES = 1000;

/**
 * Sources a command cannot swap (owned by root, in folders no user writes): left as paths. `/`
 * itself has no parent to write in; `/dev/null` hides credential files.
 */
const FIXED_SOURCES: ReadonlySet<string> = new Set(['/', '/dev/null']);

/** Linux's O_PATH (Node does not export it): a descriptor that names an object, no read right needed. */
const O_PATH = 0o10000000;

const BIND_BY_DESCRIPTOR: Readonly<Record<string, string>> = {
  '--bind': '--bind-fd',
  '--ro-bind': '--ro-bind-fd',
};

/** A bind source is not what the sandbox decided on: the command does not run. */
export class BindSourceMovedError extends Error {
  override name = 'BindSourceMovedError';
  constructor(
    readonly source: string,
    /** What became of it: `was removed`, `was replaced by a symlink`, … */
    readonly what: string,
  ) {
    super(
      `The sandbox did not run the command: ${source} ${what} after the command was checked. Nothing was bound; run the command again once it is back.`,
    );
  }
}

/** Too many bind sources for one command (nested repositories, mostly). */
export class TooManyBindSourcesError extends Error {
  override name = 'TooManyBindSourcesError';
  constructor(readonly count: number) {
    super(
      `The sandbox did not run the command: it would bind ${count} folders (nested repositories' .git among them), more than ${MAX_BIND_SOURCES}.`,
    );
  }
}

/**
 * A bind source as the sandbox decides on it where a path may lead through a symlink (a symlinked
 * `.git`, a plugin's folder): its real path, resolved now, or null if it does not exist.
 */
export function realSource(path: string): string | null {
  try {
    return realpathSync.native(path);
  } catch {
    return null;
  }
}

/**
 * `args` (bwrap's, paths as decided) with each swappable bind source turned into a descriptor
 * number: `--bind SRC DEST` becomes `--bind-fd N DEST`, and `bindSources[N - FIRST_BIND_FD]` is
 * SRC, to be opened by `openBindSources` when the command is spawned.
 */
export function bindsByDescriptor(args: readonly string[]): { args: string[]; bindSources: string[] } {
  const out: string[] = [];
  const bindSources: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const byDescriptor = BIND_BY_DESCRIPTOR[arg];
    const source = args[i + 1];
    const dest = args[i + 2];
    if (
      byDescriptor === undefined ||
      source === undefined ||
      dest === undefined ||
      FIXED_SOURCES.has(source)
    ) {
      out.push(arg);
      continue;
    }
    out.push(byDescriptor, String(FIRST_BIND_FD + bindSources.length), dest);
    bindSources.push(source);
    i += 2;
  }
  if (bindSources.length > MAX_BIND_SOURCES) throw new TooManyBindSourcesError(bindSources.length);
  return { args: out, bindSources };
}

/**
 * Each source opened without following a symlink and checked to be that path, in order (descriptor
 * `FIRST_BIND_FD + i` for the child). Throws BindSourceMovedError; then none stays open. The caller
 * closes them once the child is spawned.
 */
export function openBindSources(sources: readonly string[]): number[] {
  const fds: number[] = [];
  try {
    for (const source of sources) fds.push(openPinned(source));
    return fds;
  } catch (error) {
    closeAll(fds);
    throw error;
  }
}

export function closeAll(fds: readonly number[]): void {
  for (const fd of fds) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
  }
}

function openPinned(source: string): number {
  let fd: number;
  try {
    // O_NOFOLLOW: a symlink as the last component is opened as itself (told apart below), never followed.
    fd = openSync(source, O_PATH | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new BindSourceMovedError(
      source,
      code === 'ENOENT' ? 'was removed' : `could not be opened (${code})`,
    );
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isSymbolicLink()) throw new BindSourceMovedError(source, 'was replaced by a symlink');
    if (!stat.isDirectory() && !stat.isFile())
      throw new BindSourceMovedError(source, 'was replaced by something that is not a file or folder');
    // The object's path as the kernel knows it, no symlink in it: a folder on the way that became a
    // symlink, or a folder moved, names another path.
    const actual = readlinkSync(`/proc/self/fd/${fd}`);
    if (actual !== source)
      throw new BindSourceMovedError(source, 'was moved, or a folder on its path replaced by a symlink');
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** The descriptors a spawner passes bwrap from 3 on (its `stdio[3…]`); `close` once spawned. */
export interface LaunchDescriptors {
  readonly stdio: readonly (number | 'ignore')[];
  close(): void;
}

/**
 * Opens what a launch passes on descriptors: the seccomp program on 3 (or nothing there), the bind
 * sources from FIRST_BIND_FD on (checked as `openBindSources` does). Throws with none left open.
 */
export function openLaunchDescriptors(launch: {
  readonly fd3File: string | null;
  readonly bindSources: readonly string[];
}): LaunchDescriptors {
  const fd3 = launch.fd3File === null ? null : openSync(launch.fd3File, 'r');
  let binds: number[];
  try {
    binds = openBindSources(launch.bindSources);
  } catch (error) {
    if (fd3 !== null) closeSync(fd3);
    throw error;
  }
  let open = fd3 === null ? binds : [fd3, ...binds];
  return {
    stdio: [fd3 ?? 'ignore', ...binds],
    // Once only: a number closed twice may meanwhile name another file of this process.
    close: () => {
      closeAll(open);
      open = [];
    },
  };
}
