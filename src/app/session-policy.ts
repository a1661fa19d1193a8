import { homedir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../config/config-error.js';
import type { Config } from '../config/index.js';
import {
  appendRule,
  InvalidRuleError,
  loadPermissionRules,
  PermissionRulesError,
  type RuleSources,
  SessionPolicy,
} from '../policy/index.js';
import type { SlashCommand } from '../soul/slash-commands.js';
import type { Approval } from '../toolset/approval/approval.js';
import type { ProjectApprovals } from '../toolset/approval/project-approvals.js';
import { permissionsCommand } from './permissions-command.js';

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
  /** Every config file the agent loaded (secret files to the policy wherever they are). */
  configFiles?: readonly string[] | undefined;
  approval: Approval;
  projectApprovals: ProjectApprovals;
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
 * rules (project file, user file, config) and the approval state (modes, remembered approvals).
 * A bad rule is a config error naming the file and the rule.
 */
export async function createSessionPolicy(
  parts: SessionPolicyParts,
): Promise<{ policy: SessionPolicy; command: SlashCommand }> {
  const sources = ruleSources(parts);
  let rules: Awaited<ReturnType<typeof loadPermissionRules>>;
  try {
    rules = await loadPermissionRules(sources);
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
  const policy = new SessionPolicy({
    workDir: parts.workDir,
    additionalDirs: parts.additionalDirs,
    homes: {
      userHome: parts.env.HOME?.trim() || homedir(),
      kimiHome: parts.home,
      configFiles: parts.configFiles ?? [],
    },
    rules,
    // The session's approval state (modes, remembered approvals) is the policy's from the start.
    modes: parts.approval,
    sessionApprovals: parts.approval,
    // An answer saved as a rule goes to the project's or the user's rules file; the set is re-read.
    ruleStore: {
      async save(spec, where) {
        await appendRule(where === 'project' ? sources.projectFile : sources.userFile, spec);
        return loadPermissionRules(sources);
      },
    },
  });
  const command = permissionsCommand({
    policy,
    approval: parts.approval,
    projectApprovals: parts.projectApprovals,
    sources,
  });
  return { policy, command };
}
