import type { AgentCode } from './sandbox-agent-code.js';
import type { SandboxLaunch } from './sandbox-host.js';

/** The sandbox's settings, the facts of a session it needs, and what it gives a session (sandbox.ts). */

export const SANDBOX_MODES = ['off', 'workspace-write', 'read-only'] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];

export interface SandboxSettings {
  mode: SandboxMode;
  /** Whether commands may use the network (default false: a new, empty network namespace). */
  network: boolean;
  /**
   * Whether the workspace's secret files (`.env`, keys, credentials: sandbox-secret-files.ts) read as
   * empty to commands; true unless the person's own config says `hide_workspace_secrets = false`.
   */
  hideWorkspaceSecrets?: boolean | undefined;
  /**
   * Whether the workspace's plain-named files are scanned for tokens, and each holding one is shown
   * to commands as a redacted, read-only copy (sandbox-token-files.ts); true unless the person's own
   * config says `scan_workspace_tokens = false` (its first reading reads every untracked or changed
   * file, and a command that rewrites such a file fails: README, "Security model").
   */
  scanWorkspaceTokens?: boolean | undefined;
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
  /** Every config file the session loaded (`--config-file` too): never visible to a command. */
  configFiles?: readonly string[] | undefined;
  /**
   * The agent spec's files, the tool modules it names and the hooks' scripts (sandbox-agent-code.ts):
   * read-only where they lie inside the workspace.
   */
  agentCode?: AgentCode | undefined;
  /** PATH to find `bwrap` on. */
  path: string | undefined;
  platform?: NodeJS.Platform | undefined;
  /** The clock files and folders are judged settled on by the secret files' walk (tests move it). */
  now?: (() => number) | undefined;
}

/** Why commands run as they run: the sandbox, off by the person's choice, or wanted but impossible here. */
export type SandboxState =
  | { readonly kind: 'on'; readonly sandbox: CommandSandbox }
  | { readonly kind: 'off' }
  | {
      readonly kind: 'unavailable';
      readonly settings: SandboxSettings;
      /** What is missing, and how to fix it: said once, at start. */
      readonly problem: string;
      readonly fix: string;
    };

/**
 * The command that ended, as the policy saw it: the files its words name are scanned for tokens
 * again at once (sandbox-secret-files.ts, commandEnded); the rest of what it wrote at the next turn.
 */
export interface EndedCommand {
  readonly command: string;
  readonly cwd: string;
}

/** Runs commands inside the sandbox: what to put in front of a command's argv. */
export interface CommandSandbox {
  readonly settings: SandboxSettings;
  /** Whether UNIX sockets are refused (the seccomp filter knows this architecture). */
  readonly blocksUnixSockets: boolean;
  /**
   * How to run a command in `cwd`, sandboxed: bwrap's argv (the command's follows), the file for
   * descriptor 3 and the bind sources for 4 on (`openLaunchDescriptors` opens them, refusing a
   * source swapped for a symlink since). Call `commandEnded` when that command is over. `approvedRead`:
   * the command's text when a person approved it as a read of secret files: it sees the workspace's
   * secret files its words name (sandbox-secret-files.ts, pathsNamedBy); the rest stay hidden.
   */
  launch(cwd: string, approvedRead?: string): Promise<SandboxLaunch>;
  /**
   * The same as an argv prefix (`/bin/sh -c … bwrap … --`), for a spawner that passes no
   * descriptors. Its bind sources are paths, which bwrap resolves as it starts: a symlink swapped in
   * meanwhile is followed (`launch` refuses it). Call `commandEnded` when that command is over.
   */
  prefix(cwd: string, approvedRead?: string): Promise<string[]>;
  /**
   * A turn of the person begins: the workspace's secret files are looked for again (one they made
   * since the last command is hidden from the next), while the model is asked.
   */
  turnBegins(): void;
  /**
   * What to say when a look for the workspace's secret files first stopped at its bound; settles
   * only then (never when no look did, or hiding is off).
   */
  secretWalkBound(): Promise<string>;
  /**
   * A command (launched by `launch` or `prefix`) ended: what it left in the tree is read before the
   * next one, and the git folders it could write are cleaned of what would run a program later
   * (src/policy/new-git-dirs.ts). Settles when that is done.
   */
  commandEnded(ended?: EndedCommand): Promise<void>;
  /**
   * What the sandbox took out of git folders commands made, not yet told (a background command's
   * too): for the tool result of the command that just ended. null when nothing.
   */
  takeNotes(): string | null;
  /**
   * Which files of the workspace commands now see as read-only copies with their tokens replaced
   * (sandbox-token-files.ts), not yet told: each is said once, so that a command failing to write one
   * ("Read-only file system") is understood. null when nothing.
   */
  takeCopiesNote(): string | null;
  /**
   * Removes the empty `.kimi-ts` it made where it did not exist (if still empty): now, or when the
   * last command launched and not yet ended ends.
   */
  dispose(): void;
  /**
   * The same sandbox with `workDir` as its one workspace (an isolated subagent's worktree): the
   * session's work dir and add-dirs are then read-only like the rest of the file system.
   */
  forWorkspace(workDir: string): CommandSandbox;
}
