import { homedir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../config/config-error.js';
import type { Config } from '../config/index.js';
import { trustedFoldersFile } from '../config/trusted-folders.js';
import type { GitConfigHolds } from '../policy/git-config-holds.js';
import {
  appendRule,
  HomeStartupFiles,
  InvalidRuleError,
  type LoadedRules,
  PermissionRulesError,
  type PlanModeView,
  type PolicySandbox,
  ProtectedFiles,
  type RuleSources,
  readPermissionRules,
  realPathOf,
  rulesInForce,
  SessionPolicy,
} from '../policy/index.js';
import type { SlashCommand } from '../soul/slash-commands.js';
import type { Approval } from '../toolset/approval/approval.js';
import type { ProjectApprovals } from '../toolset/approval/project-approvals.js';
import { heldBack } from './held-back-rules.js';
import { permissionsCommand } from './permissions-command.js';
import type { WorkspaceTrust } from './workspace-trust.js';

export interface SessionPolicyParts {
  workDir: string;
  /** The session's shared, mutable list (`--add-dir`, `/add-dir`). */
  additionalDirs: readonly string[];
  /** kimi-ts's home (`KIMI_TS_HOME`). */
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  config: Config;
  /** Where the config came from, for error messages and `/permissions`. */
  configLabel: string;
  /** The config files the session loaded (absolute): protected from edits the person did not name. */
  configFiles: readonly string[];
  approval: Approval;
  projectApprovals: ProjectApprovals;
  /** The command sandbox the file tools are held to as well; absent when it is off. */
  sandbox?: PolicySandbox | undefined;
  /** Whether the workspace's own rules (its allow rules) are in force. */
  trust: WorkspaceTrust;
  /** The session's plan mode (the policy refuses writes but to the plan file while it is on). */
  planMode?: PlanModeView | undefined;
  /** Nothing beyond the sandbox, whoever answers: the reason (a fleet worker's --work-root). */
  sandboxBound?: string | undefined;
  /** Set (a fleet job's session): `/permissions trust` changes nothing and says this. */
  trustChangeRefused?: string | undefined;
  /** What git's config names in the work tree (hooks folder, includes): protected like `.git`. */
  gitConfig?: GitConfigHolds | undefined;
}

/** Where the rules of a session come from. */
export function ruleSources(
  parts: Pick<SessionPolicyParts, 'workDir' | 'home' | 'config' | 'configLabel'>,
): RuleSources {
  return {
    projectFile: join(parts.workDir, '.kimi-ts', 'permissions.toml'),
    userFile: join(parts.home, 'permissions.toml'),
    configRules: parts.config.permission.rules,
    configFile: parts.configLabel,
  };
}

/**
 * The session's policy: its workspace, the homes the sensitive classifier guards, the permission
 * rules (project file, user file, config; the project's allow rules only in a trusted workspace),
 * the agent's own configuration files it protects, and the approval state (modes, remembered
 * approvals). A bad rule is a config error naming the file and the rule.
 */
export async function createSessionPolicy(
  parts: SessionPolicyParts,
): Promise<{ policy: SessionPolicy; command: SlashCommand }> {
  const sources = ruleSources(parts);
  const { trust } = parts;
  let loaded = await readRules(sources);
  trust.setHeldBack(...heldBack(loaded, sources));
  const protectedFiles = await protectedFilesOf(parts, sources);
  const policy = new SessionPolicy({
    workDir: parts.workDir,
    additionalDirs: parts.additionalDirs,
    homes: {
      userHome: parts.env.HOME?.trim() || homedir(),
      kimiHome: parts.home,
      // Every config file the agent read holds its keys: secret files wherever they are.
      configFiles: parts.configFiles,
    },
    rules: rulesInForce(loaded, trust.trusted),
    protectedFiles,
    sandbox: parts.sandbox,
    // The session's approval state (modes, remembered approvals) is the policy's from the start.
    modes: parts.approval,
    sessionApprovals: parts.approval,
    planMode: parts.planMode,
    sandboxBound: parts.sandboxBound,
    // An answer saved as a rule goes to the project's or the user's rules file; the set is re-read.
    ruleStore: {
      async save(spec, where) {
        await appendRule(where === 'project' ? sources.projectFile : sources.userFile, spec);
        loaded = await readRules(sources);
        trust.setHeldBack(...heldBack(loaded, sources));
        return rulesInForce(loaded, trust.trusted);
      },
    },
  });
  // Trusted later (a front end asked): the project's allow rules hold from the next call on.
  trust.onTrusted(() => policy.setRules(rulesInForce(loaded, true)));
  const command = permissionsCommand({
    policy,
    approval: parts.approval,
    projectApprovals: parts.projectApprovals,
    sources,
    rules: () => loaded,
    trust,
    trustChangeRefused: parts.trustChangeRefused,
  });
  return { policy, command };
}

/** The agent's own configuration: the rules files, the trust record, the configs it loaded. */
async function protectedFilesOf(parts: SessionPolicyParts, sources: RuleSources): Promise<ProtectedFiles> {
  const files = [
    { path: sources.projectFile, what: "the project's permission rules file" },
    { path: sources.userFile, what: "the user's permission rules file" },
    { path: trustedFoldersFile(parts.home), what: 'the trust record of workspaces' },
    ...parts.configFiles.map((path) => ({ path, what: 'a config file of the agent' })),
  ];
  const home = new HomeStartupFiles(parts.env.HOME?.trim() || homedir(), () => [
    parts.workDir,
    ...parts.additionalDirs,
  ]);
  return new ProtectedFiles(
    await Promise.all(files.map(async (file) => ({ ...file, path: await realPathOf(file.path) }))),
    home,
    parts.gitConfig,
  );
}

async function readRules(sources: RuleSources): Promise<LoadedRules> {
  try {
    return await readPermissionRules(sources);
  } catch (error) {
    if (error instanceof InvalidRuleError) {
      throw new ConfigError(error.origin.file, {
        keyPath: `permission.rules[${error.origin.index - 1}].pattern`,
        problem: `"${error.pattern}": ${error.detail}`,
      });
    }
    if (error instanceof PermissionRulesError) {
      throw new ConfigError(error.file, {
        keyPath: '',
        problem: error.message.replace(/^Invalid permission rules in [^:]+: /, ''),
      });
    }
    throw error;
  }
}
