import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { type PolicyModes, type SessionApprovalView, SessionPolicy } from '../../policy/index.js';

/**
 * A policy for tests that build a toolset by hand: no rules, the homes as the environment names
 * them, the modes and remembered approvals of `approval` when given. The work dir is always said.
 */
export function testPolicy(options: {
  workDir: string;
  additionalDirs?: readonly string[];
  approval?: (PolicyModes & SessionApprovalView) | undefined;
  env?: Readonly<Record<string, string | undefined>>;
}): SessionPolicy {
  const env = options.env ?? process.env;
  const userHome = env.HOME?.trim() || homedir();
  const kimiHome = env.KIMI_TS_HOME?.trim() ? resolve(env.KIMI_TS_HOME.trim()) : join(userHome, '.kimi-ts');
  return new SessionPolicy({
    workDir: options.workDir,
    additionalDirs: options.additionalDirs ?? [],
    homes: { userHome, kimiHome },
    modes: options.approval,
    sessionApprovals: options.approval,
  });
}

/** Toolset options with a test policy added that follows their approval (work dir: the given one). */
export function withTestPolicy<T extends object>(
  options: T,
  workDir: string = process.cwd(),
): T & { policy: SessionPolicy } {
  const { approval } = options as { approval?: (PolicyModes & SessionApprovalView) | undefined };
  return { ...options, policy: testPolicy({ workDir, approval }) };
}
