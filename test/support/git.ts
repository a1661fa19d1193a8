import { execFileSync } from 'node:child_process';

/**
 * Runs git in `cwd` for a test's own checks and set-up, returns stdout. The person's global config
 * is ignored and hooks never run (a hostile repository's hooks must not run in the test either); an
 * identity is given so commits work on a machine without one.
 */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync(
    'git',
    ['-c', 'core.hooksPath=/dev/null', '-c', 'user.name=t', '-c', 'user.email=t@t', ...args],
    { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' } },
  );
}
