import { homedir } from 'node:os';
import type { Config } from '../../config/schema.js';
import { startingTrust, type TrustSource } from '../workspace-trust.js';
import { check, type DoctorCheck } from './doctor-check.js';

const SOURCES: Record<TrustSource, string> = {
  record: 'the trust record in the home',
  flag: '--trust-workspace',
  config: '[trust] folders of the config',
  client: 'a client',
  person: 'you',
};

/**
 * The trust of the work dir as a session would start with it (the trust record in the agent home,
 * `[trust] folders`). Unknown when the config does not load. Never essential: an untrusted folder
 * only leaves its own allow rules out of force.
 */
export async function checkFolderTrust(options: {
  home: string;
  workDir: string;
  env: NodeJS.ProcessEnv;
  config: Config | null;
}): Promise<DoctorCheck> {
  const { home, workDir, env, config } = options;
  if (config === null)
    return check('folder trust', 'unknown', `${workDir}: unknown (the config does not load)`, false);
  const trust = await startingTrust({
    workDir,
    home,
    userHome: env.HOME || homedir(),
    config,
    flag: undefined,
  });
  if (trust.recordProblem) return check('folder trust', 'warn', trust.recordProblem, false);
  return trust.source === null
    ? check(
        'folder trust',
        'ok',
        `${trust.folder}: not trusted (its own allow rules are not in force)${trust.trustedParent ? `; below the trusted ${trust.trustedParent}, which covers git here but not this folder's own rules` : ''}`,
        false,
      )
    : check('folder trust', 'ok', `${trust.folder}: trusted, by ${SOURCES[trust.source]}`, false);
}
