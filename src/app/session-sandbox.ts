import { resolve } from 'node:path';
import type { Config } from '../config/schema.js';
import {
  createCommandSandbox,
  type SandboxContext,
  type SandboxMode,
  type SandboxState,
} from '../policy/sandbox.js';
import { type AgentCode, NO_AGENT_CODE } from '../policy/sandbox-agent-code.js';
import { kimiInstallRoot, workspaceHoldingInstall } from '../util/install-location.js';
import { isWithinDirectory } from '../util/path-within.js';
import { realOrGiven } from '../util/real-or-given.js';
import type { LauncherFileHeld, LauncherNotHeld } from './launcher-holds.js';
import type { LinkNotHeld } from './named-script-holds.js';
import type { WarningSink } from './session-warning.js';
import { symlinkInWorkspace } from './symlink-in-workspace.js';

/**
 * `--sandbox`: absent (the config's `[sandbox] mode`, `workspace-write` by default), bare (on: the
 * config's mode, or `workspace-write` when the config says `off`), or a mode (`off` turns it off).
 */
export type SandboxFlag = boolean | SandboxMode | undefined;

/** The sandbox was asked for on the command line and cannot run here: the session does not start. */
export class SandboxUnavailableError extends Error {
  override name = 'SandboxUnavailableError';
}

/**
 * The session's command sandbox from `[sandbox]` and `--sandbox`. Where it cannot run, the session
 * still starts (commands are then asked, see the policy), unless `--sandbox` itself asked for it.
 */
export function sessionSandbox(config: Config, flag: SandboxFlag, context: SandboxContext): SandboxState {
  const configured = config.sandbox.mode;
  const mode: SandboxMode =
    typeof flag === 'string' ? flag : flag === true && configured === 'off' ? 'workspace-write' : configured;
  const state = createCommandSandbox(
    {
      mode,
      network: config.sandbox.network,
      hideWorkspaceSecrets: config.sandbox.hide_workspace_secrets,
      scanWorkspaceTokens: config.sandbox.scan_workspace_tokens,
    },
    context,
  );
  if (state.kind === 'unavailable' && flag !== undefined && flag !== false) {
    throw new SandboxUnavailableError(
      `--sandbox: the command sandbox cannot run here: ${state.problem}. To fix: ${state.fix}.`,
    );
  }
  return state;
}

/** Said once, at start, where the sandbox is wanted but cannot run. */
export function sandboxUnavailableText(state: Extract<SandboxState, { kind: 'unavailable' }>): string {
  return `The command sandbox is not running: ${state.problem}. Every command outside a small read-only set is asked (and refused where nobody can answer: print mode, afk, background agents). To fix: ${state.fix}.`;
}

let warnedUnavailable = false;

/** The warning that the sandbox cannot run, once per process (a web server's sessions, subagents). */
function warnSandboxUnavailableOnce(
  state: Extract<SandboxState, { kind: 'unavailable' }>,
  warn: WarningSink,
): void {
  if (warnedUnavailable) return;
  warnedUnavailable = true;
  warn({ kind: 'sandbox-unavailable', message: sandboxUnavailableText(state) });
}

/**
 * What a session's start says of its sandbox: that it cannot run (once per process), and, when it is
 * not on, that kimi-ts, or the agent spec and the tool code it names, lie in a folder commands may
 * write (with it on, commands and file tools cannot change them there: src/policy/sandbox-kimi-code.ts,
 * src/policy/sandbox-agent-code.ts).
 */
export function warnOfSandbox(
  guards: {
    readonly sandboxState: SandboxState;
    /** The agent spec's files and tool modules, the hooks' and MCP servers' scripts (sandbox-agent-code.ts). */
    readonly agentCode?: AgentCode | undefined;
    /** What kimi-ts loaded by a path the person gave (config files, agent specs, its home), as given. */
    readonly loadedPaths?: readonly string[] | undefined;
    /** Those of `loadedPaths` through a symlink the sandbox cannot hold (named-script-holds.ts). */
    readonly loadedLinksNotHeld?: readonly LinkNotHeld[] | undefined;
    /** What the hooks' and MCP servers' launchers run that the sandbox cannot hold (launcher-holds.ts). */
    readonly launchersNotHeld?: readonly LauncherNotHeld[] | undefined;
    /** The workspace's files the sandbox holds read-only because those launchers read them. */
    readonly launcherFilesHeld?: readonly LauncherFileHeld[] | undefined;
    /** Held files that were hard links, given a copy of their own (held-hard-links.ts). */
    readonly heldHardLinks?: readonly string[] | undefined;
  },
  writableFolders: readonly string[],
  warn: WarningSink,
): void {
  const {
    sandboxState: state,
    agentCode = NO_AGENT_CODE,
    loadedPaths = [],
    loadedLinksNotHeld = [],
  } = guards;
  if (state.kind === 'unavailable') warnSandboxUnavailableOnce(state, warn);
  if (guards.heldHardLinks?.length) warn({ kind: 'held-hard-links', files: guards.heldHardLinks });
  const realRoots = writableFolders.map((dir) => realOrGiven(resolve(dir)));
  // With the sandbox on, it holds the folder of every such link it can (session-guards.ts); without
  // it, any link on the way in a writable folder can be replaced.
  const linksNotHeld =
    state.kind === 'on'
      ? loadedLinksNotHeld
      : loadedPaths.flatMap((path) => {
          const link = symlinkInWorkspace(path, realRoots);
          return link === null ? [] : [{ path, link }];
        });
  for (const { path, link } of linksNotHeld) {
    warn({ kind: 'loaded-through-symlink', file: path, link, real: realOrGiven(path) });
  }
  // With the sandbox off, nothing is held: the warning below says so for all of them.
  if (state.kind !== 'off') {
    for (const { starter, tree, why } of guards.launchersNotHeld ?? []) {
      warn({ kind: 'launcher-not-held', starter, tree, why });
    }
  }
  if (state.kind === 'on') {
    for (const { starter, file } of guards.launcherFilesHeld ?? []) {
      warn({ kind: 'launcher-file-held', starter, file });
    }
    // Said when the first look for the workspace's secret files is done (it does not hold the start).
    void state.sandbox
      .secretWalkBound()
      .then((message) => warn({ kind: 'sandbox-secret-walk-bound', message }));
    return;
  }
  // Found once: a walk up from this module's file, reading each package.json on the way.
  const install = kimiInstallRoot();
  const holder = workspaceHoldingInstall(writableFolders, install);
  if (holder !== null) warn({ kind: 'install-in-workspace', install: install ?? '', folder: holder });
  for (const file of [...agentCode.byFolder, ...agentCode.byFile]) {
    // kimi-ts's own (the default agent's) are in the install, said above.
    const folder = realRoots.find((dir) => isWithinDirectory(file, dir));
    if (folder === undefined || (install !== null && isWithinDirectory(file, install))) continue;
    warn({ kind: 'agent-code-in-workspace', file, folder });
    return;
  }
}
