import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, relative, resolve } from 'node:path';

/**
 * The sandbox for commands (Shell, background tasks, plugin commands), opt-in with `--sandbox` or
 * `[sandbox] mode`: on Linux every command runs under bubblewrap with the whole file system
 * read-only, the workspace (and add-dirs) writable unless the mode is `read-only`, a private /tmp,
 * the agent's own home and the usual credential folders hidden, and no network unless allowed.
 */

export const SANDBOX_MODES = ['off', 'workspace-write', 'read-only'] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];

export interface SandboxSettings {
  mode: SandboxMode;
  /** Whether commands may use the network (default false: a new, empty network namespace). */
  network: boolean;
}

/** Where the sandbox puts what: the facts of one session. */
export interface SandboxContext {
  workDir: string;
  /** `--add-dir` folders; read at each command, since `/add-dir` can add more. */
  additionalDirs: () => readonly string[];
  /** The user's home, where the credential folders are. */
  userHome: string;
  /** kimi-ts's own folder (config, keys, sessions): never visible to a command. */
  kimiHome: string;
  /** PATH to find `bwrap` on. */
  path: string | undefined;
  platform?: NodeJS.Platform | undefined;
}

/** Credential files and folders under the user's home that a sandboxed command never sees. */
export const HIDDEN_HOME_PATHS: readonly string[] = [
  '.ssh',
  '.aws',
  '.config/gcloud',
  '.kube',
  '.docker',
  '.netrc',
  '.git-credentials',
  '.gnupg',
  '.npmrc',
  '.pypirc',
  '.config/gh',
  '.azure',
];

export class SandboxUnavailableError extends Error {
  override name = 'SandboxUnavailableError';
}

/** Runs commands inside the sandbox: what to put in front of a command's argv. */
export interface CommandSandbox {
  readonly settings: SandboxSettings;
  /** The argv prefix (`bwrap … --`) that runs the command that follows in `cwd`, sandboxed. */
  prefix(cwd: string): string[];
}

/**
 * The session's sandbox, or null when the mode is `off`. Throws SandboxUnavailableError when the
 * sandbox was asked for but cannot run here: a command never silently runs outside it.
 */
export function createCommandSandbox(
  settings: SandboxSettings,
  context: SandboxContext,
): CommandSandbox | null {
  if (settings.mode === 'off') return null;
  const platform = context.platform ?? process.platform;
  if (platform !== 'linux') {
    throw new SandboxUnavailableError(
      `The command sandbox is not available on ${platform}: it uses bubblewrap, which runs on Linux only. Run without --sandbox (and [sandbox] mode = "off").`,
    );
  }
  const bwrap = findBwrap(context.path);
  if (bwrap === null) {
    throw new SandboxUnavailableError(
      'The command sandbox needs bubblewrap (`bwrap`), which is not installed: install the package `bubblewrap` (Debian/Ubuntu: `sudo apt-get install bubblewrap`), or run without --sandbox.',
    );
  }
  return { settings, prefix: (cwd) => [bwrap, ...bwrapArguments(settings, context, cwd), '--'] };
}

/** bubblewrap's arguments for one command; later mounts go on top of earlier ones. */
export function bwrapArguments(settings: SandboxSettings, context: SandboxContext, cwd: string): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  const workspace = [context.workDir, ...context.additionalDirs()].map((dir) => resolve(dir));
  const bind = settings.mode === 'workspace-write' ? '--bind' : '--ro-bind';
  // Bound again even when read-only: a workspace under /tmp would be under the private tmpfs.
  for (const dir of workspace) if (existsSync(dir)) args.push(bind, dir, dir);
  // A command may start elsewhere (a plugin in its folder): that folder is seen, read-only.
  const start = resolve(cwd);
  if (!workspace.some((dir) => isWithin(dir, start)) && existsSync(start))
    args.push('--ro-bind', start, start);
  const hidden = [
    resolve(context.kimiHome),
    ...HIDDEN_HOME_PATHS.map((path) => join(context.userHome, path)),
  ];
  for (const path of hidden) {
    const kind = kindOf(path);
    if (kind === 'dir') args.push('--tmpfs', path);
    else if (kind === 'file') args.push('--ro-bind', '/dev/null', path);
  }
  if (!settings.network) args.push('--unshare-net');
  // Its own pid namespace: when bwrap goes (a kill of its group), everything the command started goes.
  args.push('--unshare-pid', '--unshare-ipc', '--die-with-parent');
  args.push('--setenv', 'TMPDIR', '/tmp', '--chdir', cwd);
  return args;
}

function isWithin(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function kindOf(path: string): 'dir' | 'file' | null {
  try {
    const stat = statSync(path);
    return stat.isDirectory() ? 'dir' : 'file';
  } catch {
    return null;
  }
}

function findBwrap(path: string | undefined): string | null {
  for (const dir of (path ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, 'bwrap');
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return null;
}
