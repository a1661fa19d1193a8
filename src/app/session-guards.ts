import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Config } from '../config/schema.js';
import { trustedFoldersFile } from '../config/trusted-folders.js';
import { mcpConfigFile } from '../mcp/cli/mcp-json-file.js';
import { readMcpConfig } from '../mcp/config.js';
import { withoutCredentialVariables } from '../policy/credential-variables.js';
import { GitConfigHolds, heldInRoots, heldPlaceholders } from '../policy/git-config-holds.js';
import { heldNamesWithoutLinks } from '../policy/git-config-link-holds.js';
import { breakHeldHardLinks } from '../policy/held-hard-links.js';
import type { PlanModeView, PolicySandbox } from '../policy/index.js';
import { type SandboxContext, type SandboxState, workspaceRoots } from '../policy/sandbox.js';
import type { AgentCode } from '../policy/sandbox-agent-code.js';
import type { SecretRegistry } from '../policy/secrets.js';
import type { Approval } from '../toolset/approval/approval.js';
import { realOrGiven } from '../util/real-or-given.js';
import { registerWritableFolders } from '../util/writable-folders.js';
import { agentCodeFiles } from './agent-code-files.js';
import { hookScriptFiles, hookScriptPaths } from './hook-script-files.js';
import { type HookCommandRefusal, watchHookScripts } from './hook-script-watch.js';
import { launcherHolds } from './launcher-holds.js';
import { mcpLaunches, mcpScriptPaths, mcpServerFiles } from './mcp-server-files.js';
import { namedScriptHolds } from './named-script-holds.js';
import { redactToolOutput } from './redact-tool-output.js';
import type { SessionFiles } from './session-files.js';
import { createSessionPolicy } from './session-policy.js';
import { type SandboxFlag, sessionSandbox } from './session-sandbox.js';
import { TrustedRulesHolds } from './trusted-rules-holds.js';
import { configuredTrustPath, type WorkspaceTrust } from './workspace-trust.js';

/**
 * What keeps a root session's side effects in bounds: its secrets (kept from children and redacted
 * from what is written), the policy with its `/permissions` command, and the command sandbox.
 */
export async function openSessionGuards(parts: {
  files: SessionFiles;
  config: Config;
  env: Readonly<Record<string, string | undefined>>;
  home: string;
  approval: Approval;
  additionalDirs: string[];
  /** `--sandbox` / `--sandbox MODE`. */
  sandbox: SandboxFlag;
  /** The session's secrets (`collectSecrets`), made before the model so its login tokens join them. */
  secrets: SecretRegistry;
  trust: WorkspaceTrust;
  otherConfigFiles: readonly string[];
  /** `--mcp-config` values (and an ACP client's servers): the scripts their servers run are held too. */
  inlineMcpConfigs: readonly string[];
  planMode: PlanModeView;
  /** Nothing beyond the sandbox, whoever answers: the reason (a fleet worker's --work-root). */
  sandboxBound?: string | undefined;
  /** Set (a fleet job's session): `/permissions trust` changes nothing and says this. */
  trustChangeRefused?: string | undefined;
}) {
  const { files, config, env, home, approval, additionalDirs, secrets } = parts;
  const { session, context } = files;
  // Children (commands, hooks, plugins) never get the keys; nothing written keeps them.
  const childEnv = secrets.childEnvironment(env);
  // What the model's commands (and plugins) run with: not the person's other credentials either,
  // whose values a command's output would hand to the model. Hooks are the person's own.
  const commandEnv = withoutCredentialVariables(childEnv, new Set(config.sandbox.keep_env));
  context.redactWith((value) => redactToolOutput(secrets.redactDeep(value)));
  const source = files.loaded.source;
  // Every config file the agent read (keys, rules): hidden from commands, secret and protected.
  const configFiles = [
    ...(source.kind === 'inline' ? [] : [resolve(source.path)]),
    ...parts.otherConfigFiles.map((file) => resolve(file)),
    join(home, 'mcp.json'),
  ];
  // What kimi-ts runs or loads outside the sandbox later (the agent spec's tool modules at the next
  // start, the hooks' scripts at the next event, the MCP servers' scripts at the next start): kept
  // read-only where commands may write.
  const userHome = env.HOME || homedir();
  // Read once: the servers the MCP extension starts are those whose scripts the sandbox holds. A
  // config that does not load starts no server (the extension reports why).
  const mcpConfig = await readMcpConfig({
    files: parts.otherConfigFiles,
    inline: parts.inlineMcpConfigs,
    defaultFile: mcpConfigFile(home),
    env,
  });
  const mcpServers = mcpConfig.ok ? mcpConfig.servers : {};
  const hookCommands = config.hooks.map((hook) => hook.command);
  // A stdio server starts in kimi-ts's own folder unless its config gives a cwd.
  const launchDir = process.cwd();
  const realRoots = [session.workDir, ...additionalDirs].map((dir) => realOrGiven(resolve(dir)));
  // A script name that is a symlink, or names nothing yet: its folder held (named-script-holds.ts).
  // What kimi-ts loaded by a path the person gave, as given (a symlink on the way is said at start
  // when the sandbox cannot hold its folder).
  const loadedPaths = [...configFiles, ...files.spec.specFiles, home];
  // What the launchers they start by name read (`npm run lint`: package.json, `python3 -m server`:
  // server.py): held like a named script (launcher-holds.ts).
  const launchers = await launcherHolds(
    [
      ...hookCommands.map((command) => ({
        starter: `the hook \`${command}\``,
        line: command,
        cwd: session.workDir,
      })),
      ...mcpLaunches(mcpServers, launchDir),
    ],
    userHome,
    realRoots,
  );
  const scriptNames = namedScriptHolds(
    [
      ...hookScriptPaths(hookCommands, session.workDir, userHome),
      ...mcpScriptPaths(mcpServers, launchDir, userHome),
      ...launchers.names,
      // The same for a config file or agent spec reached through a link: the link's folder held.
      ...loadedPaths.filter((path) => existsSync(path)).map((path) => ({ path, interpreter: null })),
    ],
    realRoots,
  );
  // What git's config names in the work tree (a `core.hooksPath` folder, an included file): held as
  // `.git/hooks` and `.git/config` are, read again when a config changes (git-config-holds.ts).
  const writableReals = () => [session.workDir, ...additionalDirs].map((dir) => realOrGiven(resolve(dir)));
  const gitConfig = new GitConfigHolds(writableReals, { home: userHome, env });
  const madeWhenMissing = [...scriptNames.madeWhenMissing, ...launchers.folders];
  const trustedRules = new TrustedRulesHolds(
    trustedFoldersFile(home),
    config.trust.folders.map((entry) => configuredTrustPath(entry, userHome)),
    writableReals,
  );
  const agentCode: AgentCode = {
    byFolder: [...agentCodeFiles(files.spec), ...scriptNames.byFolder],
    byFile: [
      ...hookScriptFiles(hookCommands, session.workDir, userHome),
      ...mcpServerFiles(mcpServers, launchDir, userHome),
      ...launchers.byFile,
    ],
    // Read at each launch: another trusted folder inside the workspace puts its own rules in force
    // with no question, so its `.kimi-ts/` is held as the work dir's is, whatever the way to it (a
    // folder missing, a link), and one trusted by another session meanwhile too (trusted-rules-holds.ts).
    get madeWhenMissing() {
      return [...madeWhenMissing, ...trustedRules.current().held];
    },
    keptLinks: () => trustedRules.current().keptLinks,
    // Made at the sandbox's start and at each command's launch (sandbox-placeholders.ts); the configs
    // of the nested repositories found by then are read too (holes4).
    gitPlaceholders: (nestedWorkTrees) =>
      heldPlaceholders(gitConfig.current({ nestedWorkTrees }), writableReals()),
    gitConfigNamed: (nestedWorkTrees) => {
      const roots = writableReals();
      const held = heldInRoots(gitConfig.current({ nestedWorkTrees }), roots);
      // A name that is a symlink or lies through one: the folder holding the link (git-config-link-holds.ts).
      return heldNamesWithoutLinks([...held.files, ...held.folders], roots);
    },
  };
  const sandboxContext: SandboxContext = {
    workDir: session.workDir,
    additionalDirs: () => additionalDirs,
    userHome,
    kimiHome: home,
    configFiles,
    agentCode,
    path: env.PATH,
  };
  // From now until the session ends, no program kimi-ts starts (the sandbox's bwrap first) is looked
  // up in a folder the session can write to (src/util/path-entries.ts), sandbox or not.
  const forgetWritableFolders = registerWritableFolders(() => workspaceRoots(sandboxContext));
  try {
    const sandboxState = sessionSandbox(config, parts.sandbox, sandboxContext);
    // Before any command runs: a held file reached by another, writable name is given its own copy.
    const heldHardLinks = sandboxState.kind === 'on' ? breakHeldHardLinks(realRoots, agentCode) : [];
    const { policy, command: permissions } = await createSessionPolicy({
      workDir: session.workDir,
      additionalDirs,
      home,
      env,
      config,
      approval,
      projectApprovals: files.projectApprovals,
      configLabel: source.kind === 'inline' ? '--config' : source.path,
      configFiles,
      trust: parts.trust,
      sandbox: policySandbox(sandboxState, agentCode),
      gitConfig,
      planMode: parts.planMode,
      sandboxBound: parts.sandboxBound,
      trustChangeRefused: parts.trustChangeRefused,
    });
    const commandSandbox = sandboxState.kind === 'on' ? sandboxState.sandbox : null;
    // With the sandbox off, commands run unconfined anyway: nothing to watch.
    const refuseHookCommand: HookCommandRefusal =
      sandboxState.kind === 'off'
        ? () => null
        : await watchHookScripts(hookCommands, session.workDir, userHome);
    return {
      secrets,
      childEnv,
      commandEnv,
      policy,
      permissions,
      commandSandbox,
      sandboxState,
      agentCode,
      loadedPaths,
      heldHardLinks,
      // Those of them the sandbox cannot hold: said at start (session-sandbox.ts).
      loadedLinksNotHeld: scriptNames.linksNotHeld.filter(({ path }) => loadedPaths.includes(path)),
      // What the hooks' and servers' launchers run that the sandbox cannot hold: said at start too.
      launchersNotHeld: launchers.notHeld,
      // Those of the files they read that lie in the workspace: read-only there, said at start.
      launcherFilesHeld: launchers.heldInWorkspace,
      mcpConfig,
      refuseHookCommand,
      forgetWritableFolders,
    };
  } catch (error) {
    // The session does not start: nothing of it stays registered.
    forgetWritableFolders();
    throw error;
  }
}

/** What the policy holds commands and file writes to: nothing when the person turned the sandbox off. */
function policySandbox(state: SandboxState, agentCode: AgentCode): PolicySandbox | undefined {
  switch (state.kind) {
    case 'off':
      return undefined;
    case 'on':
    case 'unavailable': {
      const settings = state.kind === 'on' ? state.sandbox.settings : state.settings;
      return {
        state: state.kind,
        mode: settings.mode === 'read-only' ? 'read-only' : 'workspace-write',
        agentCode,
      };
    }
  }
}
