import { homedir } from 'node:os';
import type { Config } from '../config/schema.js';
import type { SecretRegistry } from '../policy/secrets.js';
import type { Approval } from '../toolset/approval/approval.js';
import type { SessionFiles } from './session-files.js';
import { createSessionPolicy } from './session-policy.js';
import { sessionSandbox } from './session-sandbox.js';

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
  /** `--sandbox`. */
  sandbox: boolean | undefined;
  /** The session's secrets (`collectSecrets`), made before the model so its login tokens join them. */
  secrets: SecretRegistry;
  /** Config files read besides the main one (`--mcp-config-file`). */
  extraConfigFiles: readonly string[];
}) {
  const { files, config, env, home, approval, additionalDirs, secrets } = parts;
  const { session, context } = files;
  // Children (commands, hooks, plugins) never get the keys; nothing written keeps them.
  const childEnv = secrets.childEnvironment(env);
  context.redactWith((value) => secrets.redactDeep(value));
  const { policy, command: permissions } = await createSessionPolicy({
    ...{ workDir: session.workDir, additionalDirs, home, env, config, approval },
    projectApprovals: files.projectApprovals,
    configLabel: files.loaded.source.kind === 'inline' ? '--config' : files.loaded.source.path,
    // Every config file the agent read holds its keys: the main one wherever it is, and the others.
    configFiles: [
      ...(files.loaded.source.kind === 'inline' ? [] : [files.loaded.source.path]),
      ...parts.extraConfigFiles,
    ],
  });
  const commandSandbox = sessionSandbox(config, parts.sandbox, {
    workDir: session.workDir,
    additionalDirs: () => additionalDirs,
    userHome: env.HOME || homedir(),
    kimiHome: home,
    path: env.PATH,
  });
  return { secrets, childEnv, policy, permissions, commandSandbox };
}
