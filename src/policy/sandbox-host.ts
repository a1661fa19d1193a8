import {
  accessSync,
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, isAbsolute, join } from 'node:path';
import { childProcess } from '../util/child-process.js';
import { type ProbeVerdict, probeKey, readProbeVerdict, writeProbeVerdict } from './sandbox-probe-cache.js';
import { seccompArch, unixSocketFilter } from './seccomp-filter.js';

/**
 * What this machine offers the sandbox, worked out once per process: where `bwrap` is, whether it
 * can make the namespaces it needs here, and the seccomp program's file.
 */

export type SandboxHost =
  | {
      readonly available: true;
      readonly bwrap: string;
      /** Whether the seccomp filter knows this architecture (it refuses UNIX sockets). */
      readonly blocksUnixSockets: boolean;
      /**
       * The seccomp program (UNIX sockets refused), or null on an architecture the filter does not
       * know. Its file is written (or checked) when first asked for: at the first command (or the
       * trial), not on a start's path to its first model request.
       */
      readonly seccompFile: string | null;
    }
  | { readonly available: false; readonly problem: string; readonly fix: string };

const probed = new Map<string, SandboxHost>();

/**
 * The host's sandbox facts for this PATH, platform and cache folder; probed once per process, and, given a
 * `cacheDir` (the agent home's cache), once per bwrap binary and kernel setting (see
 * sandbox-probe-cache.ts): the trial spawn is tens of ms on the path before the first request.
 */
export function sandboxHost(
  path: string | undefined,
  platform: NodeJS.Platform = process.platform,
  cacheDir?: string,
): SandboxHost {
  // Per cache folder too: the seccomp program's file lives there, and a process may open sessions of
  // several homes (one removed since, with the file the memo would still name).
  const key = `${platform}\0${path ?? ''}\0${cacheDir ?? ''}`;
  let host = probed.get(key);
  if (!host) {
    host = probe(path, platform, cacheDir);
    probed.set(key, host);
  }
  return host;
}

function probe(
  path: string | undefined,
  platform: NodeJS.Platform,
  cacheDir: string | undefined,
): SandboxHost {
  if (platform !== 'linux') {
    return {
      available: false,
      problem: `the command sandbox uses bubblewrap, which runs on Linux only (this is ${platform})`,
      fix: 'run with --sandbox off to run commands unsandboxed (each one is asked as usual)',
    };
  }
  const bwrap = findOnPath('bwrap', path);
  if (bwrap === null) {
    return {
      available: false,
      problem: 'bubblewrap (`bwrap`) is not installed',
      fix: 'install the package `bubblewrap` (Debian/Ubuntu: `sudo apt-get install bubblewrap`; Fedora: `sudo dnf install bubblewrap`), or run with --sandbox off',
    };
  }
  const arch = seccompArch();
  let seccompFile: string | undefined;
  const host: SandboxHost = {
    available: true,
    bwrap,
    blocksUnixSockets: arch !== null,
    get seccompFile() {
      if (arch === null) return null;
      seccompFile ??= seccompProgramFile(unixSocketFilter(arch), arch, cacheDir);
      return seccompFile;
    },
  };
  const key = cacheDir === undefined ? null : probeKey(bwrap, arch);
  const kept = cacheDir === undefined || key === null ? null : readProbeVerdict(cacheDir, key);
  if (kept !== null) return kept.available ? host : kept;
  const { verdict, isSettled } = trial(host);
  if (isSettled && cacheDir !== undefined && key !== null) writeProbeVerdict(cacheDir, key, verdict);
  return verdict.available ? host : verdict;
}

/**
 * The namespaces and the filter exactly as commands get them, around `true`. Settled when bwrap
 * itself answered (an exit status): a timeout or a failed spawn (a loaded machine) is not kept.
 */
function trial(host: Extract<SandboxHost, { available: true }>): {
  verdict: ProbeVerdict;
  isSettled: boolean;
} {
  const [shell, ...launched] = shellLaunched(
    bwrapLaunch(host, [
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--unshare-pid',
      // As commands run (sandbox.ts): a bwrap without it is found here, not at the first command.
      '--as-pid-1',
      '--unshare-net',
      '--die-with-parent',
      '--',
    ]),
  ) as [string, ...string[]];
  const trial = childProcess().spawnSync(shell, [...launched, 'true'], { encoding: 'utf8', timeout: 10_000 });
  const isSettled = trial.error === undefined && trial.status !== null;
  if (trial.status === 0) return { verdict: { available: true }, isSettled };
  const said = (trial.stderr || trial.error?.message || `exit ${trial.status}`).trim().split('\n')[0];
  const verdict: ProbeVerdict = {
    available: false,
    problem: `bubblewrap cannot create its namespaces here (${said ?? 'no reason given'})`,
    fix: 'allow unprivileged user namespaces (`sudo sysctl -w kernel.unprivileged_userns_clone=1`; on Ubuntu 24.04 and later `sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0`), or run with --sandbox off',
  };
  return { verdict, isSettled };
}

/**
 * How to start bwrap: its argv, and the file it reads on descriptor 3 (the seccomp program; bwrap
 * reads the program from a descriptor), which whoever spawns it opens and passes as that descriptor.
 */
export interface SandboxLaunch {
  /** `bwrap …` up to and including `--`: the command's own argv follows. */
  readonly argv: readonly string[];
  /** The file to open on descriptor 3, or null (no seccomp program on this architecture). */
  readonly fd3File: string | null;
  /**
   * The bind sources `argv` names by descriptor (`--bind-fd 4 …`), from descriptor 4 on: opened
   * and checked by whoever spawns bwrap (sandbox-bind-fds.ts, `openLaunchDescriptors`).
   */
  readonly bindSources: readonly string[];
}

/** bwrap with `args` (ending in `--`), with the seccomp program on descriptor 3 where there is one. */
export function bwrapLaunch(
  host: Extract<SandboxHost, { available: true }>,
  args: readonly string[],
  bindSources: readonly string[] = [],
): SandboxLaunch {
  const seccomp = host.seccompFile === null ? [] : ['--seccomp', '3'];
  return { argv: [host.bwrap, ...seccomp, ...args], fd3File: host.seccompFile, bindSources };
}

/**
 * The same launch (binding by path) as an argv alone, for a spawner that passes no descriptors: `/bin/sh` opens the
 * file on descriptor 3 and execs bwrap, so no process stays (one more exec per command, about 0.7 ms
 * of CPU: the Shell tool spawns bwrap itself).
 */
export function shellLaunched(launch: SandboxLaunch): string[] {
  // A shell cannot open a path without following symlinks: a launch binding by descriptor needs a
  // spawner that passes them.
  if (launch.bindSources.length > 0)
    throw new Error('a launch with bind descriptors cannot run behind /bin/sh');
  if (launch.fd3File === null) return ['/bin/sh', '-c', 'exec "$@"', 'sh', ...launch.argv];
  return ['/bin/sh', '-c', 'f=$1; shift; exec "$@" 3<"$f"', 'sh', launch.fd3File, ...launch.argv];
}

/**
 * The seccomp program's file. In the agent home's cache (hidden from sandboxed commands, shared by
 * the user's processes) it is written once and left there: a folder per process in the temp folder
 * was removed only by a clean exit, so every killed process left one behind. Without a cache folder:
 * this process's own folder, as before.
 *
 * Every command opens it by name, so whatever stands there is the next command's filter: a symlink
 * (of the file or of its folder) into the workspace let a sandboxed command rewrite it to "allow
 * everything", and a FIFO there hung the start. The file is kept only as a regular file of this
 * user, writable by no one else, in the cache's own folder (no symlink on the way); anything else
 * is replaced, or this process's own folder is used.
 */
function seccompProgramFile(program: Uint8Array, arch: string, cacheDir: string | undefined): string {
  const name = `unix-sockets-${arch}.bpf`;
  if (cacheDir !== undefined) {
    const dir = join(cacheDir, 'sandbox');
    const file = join(dir, name);
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      if (isOwnFolder(dir, join(realpathSync(dirname(cacheDir)), basename(cacheDir), 'sandbox'))) {
        if (holdsProgram(file, program)) return file;
        // Another process may be writing it at the same moment: each writes its own file and renames
        // it into place, so a command never opens a half-written program. The rename replaces
        // whatever stood there (a symlink, a FIFO), never what it pointed to.
        const partial = `${file}.${process.pid}.partial`;
        rmSync(partial, { force: true });
        writeFileSync(partial, program, { mode: 0o600, flag: 'wx' });
        renameSync(partial, file);
        return file;
      }
    } catch {
      // a read-only home: this process's own folder below
    }
  }
  const file = join(privateFiles(), name);
  writeFileSync(file, program, { mode: 0o600 });
  return file;
}

/** `dir` is a real folder at `expected` (no symlink on the way), this user's, writable by no one else. */
function isOwnFolder(dir: string, expected: string): boolean {
  const stat = lstatSync(dir);
  return (
    stat.isDirectory() &&
    realpathSync(dir) === expected &&
    stat.uid === process.getuid?.() &&
    (stat.mode & 0o022) === 0
  );
}

/** `file` is a regular file of this user, writable by no one else, holding exactly `program`. */
function holdsProgram(file: string, program: Uint8Array): boolean {
  let fd: number;
  try {
    // Not followed if a symlink, not waited on if a FIFO.
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return false;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.uid !== process.getuid?.() || (stat.mode & 0o022) !== 0) return false;
    if (stat.size !== program.length) return false;
    const held = Buffer.alloc(program.length);
    return readSync(fd, held, 0, held.length, 0) === held.length && held.equals(program);
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

let privateDir: string | undefined;

/** This process's own folder for the sandbox's files (0700), removed when it exits. */
function privateFiles(): string {
  if (privateDir === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'kimi-ts-sandbox-'));
    privateDir = dir;
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return privateDir;
}

function findOnPath(name: string, path: string | undefined): string | null {
  for (const dir of (path ?? '').split(delimiter)) {
    // A relative entry (`.`, `bin`) names a folder of wherever the CLI runs: the workspace's own
    // `bwrap` would launch every command, unsandboxed, and run at the probe before any question.
    if (!dir || !isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return null;
}
