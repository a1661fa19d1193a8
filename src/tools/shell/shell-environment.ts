import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Where bash usually is when PATH does not say. */
const FALLBACK_BASH_PATHS = ['/bin/bash', '/usr/bin/bash', '/usr/local/bin/bash'];

/** The bash executable for `env`'s PATH, or null when there is none. */
export function findBash(env: Readonly<Record<string, string | undefined>>): string | null {
  const pathDirs = (env.PATH ?? '').split(delimiter).filter((dir) => dir !== '');
  const candidates = [...pathDirs.map((dir) => join(dir, 'bash')), ...FALLBACK_BASH_PATHS];
  return candidates.find(isExecutableFile) ?? null;
}

/**
 * The environment commands run with: the session's, with git told never to prompt for credentials
 * (there is no terminal to answer it, so the command would hang until its timeout) and SHELL set to
 * the bash that runs them.
 */
export function commandEnvironment(
  processEnv: Readonly<Record<string, string | undefined>>,
  bashPath: string,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(processEnv)) {
    if (value !== undefined) env[name] = value;
  }
  env.GIT_TERMINAL_PROMPT = '0';
  env.SHELL = bashPath;
  return env;
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
