import { resolve } from 'node:path';
import type { AgentSessionImpl } from '../app/agent-session-impl.js';
import type { CreateAgentSessionOptions } from '../app/create-agent-session.js';
import type { DefaultExtensionOptions } from '../app/default-extensions.js';
import type { WarningSink } from '../app/session-warning.js';

/**
 * The command-line flags that shape a session, whichever front end serves it (print, wire, the
 * shell and TUI, `kimi-ts web`, `kimi-ts acp`). Commander parses the main command's flags wherever
 * they stand, so every subcommand gets them all through `optsWithGlobals()`.
 */
export interface SessionFlags {
  workDir?: string | undefined;
  config?: string | undefined;
  configFile?: string | undefined;
  model?: string | undefined;
  agentFile?: string | undefined;
  yolo?: boolean | undefined;
  afk?: boolean | undefined;
  sandbox?: boolean | 'off' | 'workspace-write' | 'read-only' | undefined;
  /** `--trust-workspace`. */
  trustWorkspace?: boolean | undefined;
  plan?: boolean | undefined;
  thinking?: boolean | undefined;
  maxStepsPerTurn?: number | undefined;
  maxRetriesPerStep?: number | undefined;
  maxRalphIterations?: number | undefined;
  skillsDir?: string | undefined;
  addDir?: readonly string[] | undefined;
  mcpConfigFile?: readonly string[] | undefined;
  mcpConfig?: readonly string[] | undefined;
}

/** Which session, where, and what the front end adds to the flags. */
export interface SessionPlace {
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  /** The session's work dir (the web page's or the ACP client's may differ from the command's). */
  workDir: string;
  sessionId?: string | undefined;
  continueLast?: boolean | undefined;
  /** Print mode: afk for this run only (approve actions, dismiss questions), never saved. */
  runtimeAfk?: boolean | undefined;
  /** More folders the front end's client asks for (an ACP client's `additionalDirectories`). */
  addDirs?: readonly string[] | undefined;
  /** More MCP servers JSON the front end's client passes (an ACP client's `mcpServers`). */
  mcpConfigs?: readonly string[] | undefined;
  onWarning: WarningSink;
  /** Where relative paths on the command line start from (default: the current directory). */
  cwd?: string | undefined;
}

/**
 * The options of `createAgentSession` for `flags` at `place`, and those of its default extensions:
 * one builder, so that every front end honours every flag the same way. Paths given on the command
 * line (`--add-dir`, `--skills-dir`) are relative to where the command runs, not to a session's work
 * dir (which, for web and ACP, a client chose).
 */
export function agentSessionOptions(
  flags: SessionFlags,
  place: SessionPlace,
): { session: Omit<CreateAgentSessionOptions, 'extensions'>; extensions: DefaultExtensionOptions } {
  const cwd = place.cwd ?? process.cwd();
  const launchDir = resolve(cwd, flags.workDir ?? '.');
  // `~` is expanded later, against the user's home; anything else is fixed to the launch folder now.
  const mcpConfigs = [...(flags.mcpConfig ?? []), ...(place.mcpConfigs ?? [])];
  const addDirs = [
    ...(flags.addDir ?? []).map((dir) => (dir.startsWith('~') ? dir : resolve(launchDir, dir))),
    ...(place.addDirs ?? []),
  ];
  return {
    session: {
      workDir: place.workDir,
      home: place.home,
      env: place.env,
      configFile: flags.configFile,
      inlineConfig: flags.config,
      modelAlias: flags.model,
      sessionId: place.sessionId,
      continueLast: place.continueLast,
      agentFile: flags.agentFile,
      yolo: flags.yolo,
      sandbox: flags.sandbox,
      trustWorkspace: flags.trustWorkspace,
      otherConfigFiles: (flags.mcpConfigFile ?? []).map((file) => resolve(cwd, file)),
      inlineMcpConfigs: mcpConfigs,
      afk: flags.afk,
      runtimeAfk: place.runtimeAfk,
      thinking: flags.thinking,
      maxStepsPerTurn: flags.maxStepsPerTurn,
      maxRetriesPerStep: flags.maxRetriesPerStep,
      maxRalphIterations: flags.maxRalphIterations,
      skillsDir: flags.skillsDir === undefined ? undefined : resolve(cwd, flags.skillsDir),
      addDirs,
      onWarning: place.onWarning,
    },
    extensions: {
      home: place.home,
      plan: flags.plan,
      addDirs,
    },
  };
}

/** Builds the session `flags` and `place` describe. The app's modules load on the first call. */
export async function openAgentSessionFromFlags(
  flags: SessionFlags,
  place: SessionPlace,
): Promise<AgentSessionImpl> {
  const [{ createAgentSession }, { defaultExtensions }] = await Promise.all([
    import('../app/create-agent-session.js'),
    import('../app/default-extensions.js'),
  ]);
  const options = agentSessionOptions(flags, place);
  return createAgentSession({ ...options.session, extensions: defaultExtensions(options.extensions) });
}
