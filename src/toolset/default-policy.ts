import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { SessionPolicy } from '../policy/index.js';

/**
 * The policy of a toolset the app did not give one (tests, embedders): no rules, the user's home
 * and kimi-ts's home as the environment names them.
 */
export function defaultPolicy(
  workDir: string,
  additionalDirs: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
): SessionPolicy {
  const userHome = env.HOME?.trim() || homedir();
  const kimiHome = env.KIMI_TS_HOME?.trim() ? resolve(env.KIMI_TS_HOME.trim()) : join(userHome, '.kimi-ts');
  return new SessionPolicy({ workDir, additionalDirs, homes: { userHome, kimiHome } });
}
