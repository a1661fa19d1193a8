import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { trustedPathEntries } from '../util/path-entries.js';
import { isWithinDirectory } from '../util/path-within.js';
import { realOrGiven } from '../util/real-or-given.js';
import { NestedGitIndex } from './nested-git-index.js';
import { GitDirGuard } from './new-git-dirs.js';
import { agentCodeReadOnly } from './sandbox-agent-code.js';
import { bindsByDescriptor, realSource } from './sandbox-bind-fds.js';
import { cleanGitDirs, gitPathsOf, heldAgentCode, nestedGitBinds } from './sandbox-git-dirs.js';
import { HeldNamesRegistry } from './sandbox-held-registry.js';
import { hiddenPathKinds, hiddenPaths } from './sandbox-hidden-paths.js';
import { homeStartupFilesReadOnly, keptReadOnlyByHome } from './sandbox-home.js';
import { bwrapLaunch, type SandboxHost, sandboxHost, shellLaunched } from './sandbox-host.js';
import { KeptNamesGuard } from './sandbox-kept-names.js';
import { kimiCodeFolders, kimiCodeReadOnly } from './sandbox-kimi-code.js';
import { heldNpmConfigFiles, npxKeptNames } from './sandbox-npx-names.js';
import { pinnedParents, pinsWithin } from './sandbox-pinned-parents.js';
import {
  agentCodeForLaunch,
  heldNames,
  makeAgentPlaceholders,
  removeAgentPlaceholders,
} from './sandbox-placeholders.js';
import { ensureProtected, PROJECT_CONFIG_FOLDER } from './sandbox-protected.js';
import { RealRoots } from './sandbox-real-roots.js';
import { insideAny, pathsNamedBy, SandboxSecretFiles, type SecretFileBinds } from './sandbox-secret-files.js';
import type { CommandSandbox, SandboxContext, SandboxSettings, SandboxState } from './sandbox-types.js';

export { HIDDEN_HOME_PATHS } from './sandbox-hidden-paths.js';
export type { SandboxLaunch } from './sandbox-host.js';
export { describeSandboxStatus, type SandboxStatus, sandboxStatus } from './sandbox-status.js';

/**
 * The sandbox for commands (Shell, background tasks, plugin commands), on by default where it can
 * run: on Linux every command runs under bubblewrap with the whole file system read-only, the
 * workspace (and add-dirs) writable unless the mode is `read-only` (but `.git` and `.kimi-ts` in
 * them), a private /tmp, the agent's own home, every config file it loaded and the person's
 * credential files hidden, its own PID namespace (the agent's process and environment out of
 * reach), no network unless allowed, and no UNIX sockets (a seccomp filter).
 */

export {
  type CommandSandbox,
  SANDBOX_MODES,
  type SandboxContext,
  type SandboxMode,
  type SandboxSettings,
  type SandboxState,
} from './sandbox-types.js';

/**
 * The folders a session's commands may write to in `workspace-write`: the work dir and the add-dirs
 * as they stand now. The same list keeps PATH entries inside them from being trusted
 * (src/util/writable-folders.ts, registered by the session whatever the sandbox's mode).
 */
export function workspaceRoots(context: Pick<SandboxContext, 'workDir' | 'additionalDirs'>): string[] {
  return [context.workDir, ...context.additionalDirs()];
}

/** The session's sandbox: on, off (mode `off`), or unavailable here (no bubblewrap, no namespaces). */
export function createCommandSandbox(settings: SandboxSettings, context: SandboxContext): SandboxState {
  if (settings.mode === 'off') return { kind: 'off' };
  // The trial's verdict is kept in the agent home's cache: no bwrap spawn at a session's start.
  // bwrap from PATH's trusted entries: a work tree's own (through `.`, or its node_modules/.bin that
  // npx puts on PATH) would be the sandbox.
  const cacheDir = join(context.kimiHome, 'cache');
  const host = sandboxHost(
    trustedPathEntries(context.path, [context.workDir]),
    context.platform ?? process.platform,
    cacheDir,
  );
  if (!host.available) return { kind: 'unavailable', settings, problem: host.problem, fix: host.fix };
  const placeholders = new Set<string>();
  // `.kimi-ts` is made now, so the workspace looks the same before and after the first command.
  // `.git` never (a folder left in the person's tree, and a `git init` they ask for would fail): a
  // git folder a command makes is cleaned after it instead (src/policy/new-git-dirs.ts).
  const reals = new RealRoots();
  let held: HeldNamesRegistry | null = null;
  if (settings.mode === 'workspace-write') {
    const roots = [context.workDir, ...context.additionalDirs()].map((dir) => reals.of(dir));
    for (const dir of roots) ensureProtected(dir, placeholders, [PROJECT_CONFIG_FOLDER]);
    // What the agent's code names and does not exist yet (another trusted folder's `.kimi-ts`).
    makeAgentPlaceholders(context.agentCode, roots, placeholders);
    // Seen by the other sessions: a placeholder of theirs this one holds stays (sandbox-held-registry.ts).
    held = new HeldNamesRegistry(join(context.kimiHome, 'cache', 'held-names'));
    held.record(heldNames(context.agentCode, roots, placeholders));
  }
  return {
    kind: 'on',
    sandbox: sandboxFor(settings, context, host, placeholders, new Map(), {
      running: 0,
      disposed: false,
      reals,
      guard: new GitDirGuard(),
      kept: new KeptNamesGuard(),
      checking: Promise.resolve(),
      notes: [],
      held,
      secrets:
        settings.hideWorkspaceSecrets === false
          ? null
          : new SandboxSecretFiles(cacheDir, settings.scanWorkspaceTokens !== false, undefined, context.now),
    }),
  };
}

/**
 * The commands launched and not yet ended, of a sandbox and those `forWorkspace` made from it. A
 * placeholder goes only when none runs: bwrap binds it as it starts, so a command launched just
 * before the session closed (a background command a fleet worker keeps running while its turn is
 * parked, or one `keep_alive_on_exit` leaves) would otherwise fail to start.
 */
interface SandboxCommands {
  running: number;
  disposed: boolean;
  /** The writable folders' real paths as first seen, shared the same way. */
  reals: RealRoots;
  /** The git folders commands made, checked after each command (shared the same way). */
  guard: GitDirGuard;
  /** The names a bind cannot hold (links, names that must not appear), put back after each command. */
  kept: KeptNamesGuard;
  /** The check under way: the next command starts after it. */
  checking: Promise<void>;
  /** What the checks took out and nobody has told yet. */
  notes: string[];
  /** What this session's commands hold, seen by the other sessions (workspace-write only). */
  held: HeldNamesRegistry | null;
  /** The workspace's secret files, hidden from commands; null when the person's config turned that off. */
  secrets: SandboxSecretFiles | null;
}

function sandboxFor(
  settings: SandboxSettings,
  context: SandboxContext,
  host: Extract<SandboxHost, { available: true }>,
  placeholders: Set<string>,
  /** One per writable folder, shared with the sandboxes made by `forWorkspace`. */
  indexes: Map<string, NestedGitIndex>,
  commands: SandboxCommands,
): CommandSandbox {
  const { reals } = commands;
  // The session's end, once no command runs: what the last commands changed of the kept names is put
  // back first; then its placeholders and its redacted copies go.
  const removePlaceholders = () => {
    commands.kept.check();
    removeAgentPlaceholders(placeholders, commands.held);
    commands.secrets?.dispose();
  };
  const workspace = () => workspaceRoots(context).map((dir) => reals.of(dir));
  const indexOf = (dir: string, roots: readonly string[]): NestedGitIndex => {
    const known = indexes.get(dir);
    if (known) return known;
    // One reading of the folder after a command serves it and the secret files (when hidden).
    const index = new NestedGitIndex(dir, roots, commands.secrets?.walkOf(dir));
    indexes.set(dir, index);
    return index;
  };
  /** Cleans the git folders commands could write; what it took out is kept for `takeNotes`. */
  const checkGitDirs = async () => {
    if (settings.mode !== 'workspace-write') return;
    const note = await cleanGitDirs(workspace(), indexOf, commands.guard, commands.running === 0, context);
    if (note !== null) commands.notes.push(note);
    const kept = commands.kept.check();
    if (kept !== null) commands.notes.push(kept);
  };
  /** bwrap's arguments for a command in `cwd`, bind sources as paths (the decision). */
  const decide = async (cwd: string, approvedRead: string | undefined): Promise<string[]> => {
    await commands.checking;
    const roots = workspace();
    const shown = approvedRead === undefined ? [] : pathsNamedBy(approvedRead, reals.cwd(cwd));
    const secretFiles = (await commands.secrets?.bindsFor(roots, shown)) ?? NO_SECRET_FILES;
    const nested = new Map<string, readonly string[]>();
    let agentCode = context.agentCode;
    if (settings.mode === 'workspace-write') {
      for (const root of await gitPathsOf(workspace(), indexOf)) {
        nested.set(root.dir, root.nested);
        // Before the root's first command: what is there is the person's.
        commands.guard.adoptOnce(root.dir, root.gitDirs);
      }
      // From here to the arguments in one synchronous stretch: what git's config names is asked once.
      agentCode = agentCodeForLaunch(agentCode, nested);
      makeAgentPlaceholders(agentCode, roots, placeholders);
      commands.held?.record(heldNames(agentCode, roots, placeholders));
    }
    const args = bwrapArguments(
      settings,
      reals.checkedContext({ ...context, agentCode }),
      reals.cwd(cwd),
      placeholders,
      nested,
      secretFiles,
    );
    // After the placeholders are made (an `.npmrc` made empty is bound, not kept); anew when no other runs.
    if (settings.mode === 'workspace-write')
      commands.kept.adopt(
        [...npxKeptNames(roots), ...(agentCode?.keptLinks?.() ?? [])],
        commands.running === 1,
      );
    return args;
  };
  /**
   * A command counts as running from the start of its launch: a git folder checked meanwhile is not
   * sealed (it may be missing from this command's read-only binds). Not counted if the launch fails.
   */
  const launching = async <T>(
    cwd: string,
    approvedRead: string | undefined,
    build: (decided: string[]) => T,
  ): Promise<T> => {
    commands.running++;
    try {
      return build(await decide(cwd, approvedRead));
    } catch (error) {
      commands.running--;
      throw error;
    }
  };
  return {
    settings,
    blocksUnixSockets: host.blocksUnixSockets,
    launch: (cwd, approvedRead) =>
      launching(cwd, approvedRead, (decided) => {
        // Sources by descriptor, opened by the spawner with no symlink followed (sandbox-bind-fds.ts).
        const { args, bindSources } = bindsByDescriptor(decided);
        return bwrapLaunch(host, [...args, '--'], bindSources);
      }),
    // By path: a shell cannot open them without following a symlink (see CommandSandbox.prefix).
    prefix: (cwd, approvedRead) =>
      launching(cwd, approvedRead, (decided) => shellLaunched(bwrapLaunch(host, [...decided, '--']))),
    turnBegins: () => commands.secrets?.refresh(workspace()),
    secretWalkBound: () => commands.secrets?.boundHit ?? NEVER,
    commandEnded: (ended) => {
      commands.running = Math.max(0, commands.running - 1);
      if (commands.disposed && commands.running === 0) removePlaceholders();
      for (const index of indexes.values()) index.refresh();
      // A secret file the command made is hidden from the next one; of the files it wrote in place,
      // those it named are scanned for tokens now, the rest at the next turn (sandbox-secret-files.ts).
      commands.secrets?.commandEnded(ended && pathsNamedBy(ended.command, reals.cwd(ended.cwd)));
      // After the check under way (a background command's), not beside it.
      const check = commands.checking.then(checkGitDirs);
      commands.checking = check.catch(() => undefined);
      return commands.checking;
    },
    takeNotes: () => {
      const notes = commands.notes.splice(0);
      return notes.length > 0 ? notes.join('\n') : null;
    },
    takeCopiesNote: () => commands.secrets?.takeNote() ?? null,
    dispose: () => {
      commands.disposed = true;
      if (commands.running === 0) removePlaceholders();
    },
    forWorkspace: (workDir) =>
      sandboxFor(
        settings,
        { ...context, workDir, additionalDirs: () => [] },
        host,
        placeholders,
        indexes,
        commands,
      ),
  };
}

/** A promise that never settles (nothing to say). */
const NEVER: Promise<never> = new Promise(() => undefined);

const NO_SECRET_FILES: SecretFileBinds = { files: [], source: '/dev/null' };

/** bubblewrap's arguments for one command; later mounts go on top of earlier ones. */
export function bwrapArguments(
  settings: SandboxSettings,
  context: SandboxContext,
  cwd: string,
  placeholders: Set<string>,
  /** Each writable folder's nested `.git` paths (a NestedGitIndex reading). */
  nestedGit: ReadonlyMap<string, readonly string[]> = new Map(),
  /** The workspace's secret files and what is bound over each (sandbox-secret-files.ts). */
  secretFiles: SecretFileBinds = NO_SECRET_FILES,
): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  const workspace = workspaceRoots(context).map((dir) => resolve(dir));
  const writable = settings.mode === 'workspace-write';
  // Bound again even when read-only: a workspace under /tmp would be under the private tmpfs.
  for (const dir of workspace) if (existsSync(dir)) args.push(writable ? '--bind' : '--ro-bind', dir, dir);
  if (writable) args.push(...homeStartupFilesReadOnly(workspace, context.userHome));
  // Each path stat'ed once (for every command: one made since is hidden too).
  const hidden = hiddenPaths(context);
  const kinds = hiddenPathKinds(context);
  // kimi-ts's own code when it runs from inside the workspace, and what is hidden there (a config
  // file, the agent's home): the folders above them pinned, before anything is bound inside them.
  const kimiCode = writable ? kimiCodeFolders(workspace) : [];
  // The roots' own `.npmrc` (sandbox-npx-names.ts), and those on the way to an install in the workspace.
  const npmConfig = writable ? heldNpmConfigFiles(workspace, kimiCode.length > 0) : [];
  const agentCode = writable ? heldAgentCode(context.agentCode, workspace, nestedGit) : [];
  const realHome = realOrGiven(resolve(context.userHome));
  const pins = writable
    ? pinnedParents(
        kimiCode.concat(
          npmConfig,
          agentCode,
          hidden.filter((path) => kinds.get(path) !== null).map(realOrGiven),
        ),
        workspace,
        (dir, root) => keptReadOnlyByHome(dir, root, realHome),
      )
    : [];
  args.push(...pins);
  if (writable) for (const dir of workspace) args.push(...ensureProtected(dir, placeholders));
  // Bound again below for a workspace inside a hidden folder.
  const nested = new Map(workspace.map((dir) => [dir, writable ? nestedGitBinds(nestedGit.get(dir)) : []]));
  for (const dir of workspace) args.push(...(nested.get(dir) ?? []));
  // A command may start elsewhere (a plugin in its folder): that folder is seen, read-only, where it
  // really is (a bind source has no symlink in it, sandbox-bind-fds.ts), and it starts there.
  const given = resolve(cwd);
  const elsewhere = workspace.some((dir) => isWithin(dir, given)) ? null : realSource(given);
  if (elsewhere !== null) args.push('--ro-bind', elsewhere, elsewhere);
  const start = elsewhere ?? given;
  // The nesting test only against the hidden folders that exist (a few), not every pair.
  const hiddenFolders = hidden.filter((path) => kinds.get(path) === 'dir');
  const hide = (paths: readonly string[]) => {
    for (const path of paths) {
      const kind = kinds.get(path);
      // Missing (most of them), or inside a folder already hidden (the config in the agent's home).
      if (!kind || hiddenFolders.some((folder) => folder !== path && isWithin(folder, path))) continue;
      if (kind === 'dir') {
        args.push('--tmpfs', path);
        // A workspace inside a hidden folder (a worktree in the agent's home) is bound again on top,
        // before the folder turns read-only (bwrap makes its mount point in the tmpfs).
        for (const dir of workspace.filter((d) => isWithin(path, d) && existsSync(d))) {
          args.push(writable ? '--bind' : '--ro-bind', dir, dir);
          if (writable)
            args.push(
              ...pinsWithin(pins, dir),
              ...ensureProtected(dir, placeholders),
              ...(nested.get(dir) ?? []),
            );
        }
        args.push('--remount-ro', path);
      } else if (kind === 'file') args.push('--ro-bind', '/dev/null', path);
    }
  };
  hide(hidden);
  // Last, on top of the workspace's binds: kimi-ts's own code when it runs from inside the workspace,
  // and the agent's. Each is a bind of the folder as it is outside: what is hidden inside one, or is
  // one (a config file beside the agent spec, the agent's home), is hidden again on top.
  args.push(...kimiCodeReadOnly(kimiCode, placeholders, npmConfig), ...agentCodeReadOnly(agentCode));
  const held = [...kimiCode, ...agentCode];
  // Most sessions hold nothing: no real path looked up then (every command pays it).
  if (held.length > 0)
    hide(
      hidden.filter((path) => {
        if (!kinds.get(path)) return false;
        const real = realOrGiven(path);
        return held.some((folder) => isWithin(folder, real));
      }),
    );
  // The workspace's secret files, last: on top of every bind that could show one again (the npm
  // config files kimi-ts's own code holds read-only). Not those inside a folder hidden whole, nor
  // those hidden already (a config file loaded from the workspace).
  for (const file of secretFiles.files)
    if (!insideAny(file, hiddenFolders) && !kinds.has(file))
      args.push('--ro-bind', secretFiles.copies?.get(file) ?? secretFiles.source, file);
  if (!settings.network) args.push('--unshare-net');
  // Its own PID namespace and /proc: the agent's process (`/proc/$PPID/environ`) is not there, and
  // when bwrap goes (a kill of its group), everything the command started goes. The command is the
  // namespace's PID 1 (bash reaps what is orphaned inside): bwrap's own init would outlive bwrap by a
  // moment and be left to the machine's PID 1 — a zombie for good in a container whose init reaps nothing.
  args.push('--unshare-pid', '--as-pid-1', '--unshare-ipc', '--die-with-parent');
  // Run by root (a container, a CI job), bwrap leaves the command every capability, and with
  // CAP_SYS_ADMIN it could `umount` a hidden folder or remount `/` writable: none, as for anyone else.
  if (runsAsRoot()) args.push('--cap-drop', 'ALL');
  args.push('--setenv', 'TMPDIR', '/tmp', '--chdir', start);
  return args;
}

/** Whether this process is root: bwrap then keeps the command's capabilities unless told not to. */
function runsAsRoot(): boolean {
  return process.getuid?.() === 0;
}

/** `path` is `dir` or below it; both absolute and normalised (`resolve` results). */
function isWithin(dir: string, path: string): boolean {
  return isWithinDirectory(path, dir);
}
