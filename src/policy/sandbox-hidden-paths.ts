import { resolve } from 'node:path';

/**
 * Credential files and folders under the user's home that a sandboxed command never sees (README,
 * "Security model", names the same list).
 */
export const HIDDEN_HOME_PATHS: readonly string[] = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.config/gh',
  '.config/gcloud',
  '.config/hub',
  '.config/op',
  '.config/rclone',
  '.docker/config.json',
  '.kube',
  '.azure',
  '.terraform.d',
  '.vault-token',
  '.password-store',
  '.netrc',
  '.git-credentials',
  '.npmrc',
  '.yarnrc.yml',
  '.pypirc',
  '.gem/credentials',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.m2/settings.xml',
  '.gradle/gradle.properties',
  '.pgpass',
  '.my.cnf',
  '.local/share/keyrings',
  '.mozilla',
  '.config/google-chrome',
  '.config/chromium',
];

/** What the hidden paths are made of (a SandboxContext is one). */
export interface HiddenPathsContext {
  kimiHome: string;
  userHome: string;
  configFiles?: readonly string[] | undefined;
}

/** The paths a command never sees, as of the context's homes and config files (absolute, normalised). */
export function hiddenPaths(context: HiddenPathsContext): readonly string[] {
  const known = hiddenPathsMemo.get(context);
  if (
    known &&
    known.kimiHome === context.kimiHome &&
    known.userHome === context.userHome &&
    known.configFiles === context.configFiles
  )
    return known.paths;
  // Built once per context, not per command: 30-odd joins and resolves each time were a tenth of a
  // millisecond of every step. Which of them exist is still asked at each command.
  const paths = [
    resolve(context.kimiHome),
    ...(context.configFiles ?? []).map((file) => resolve(file)),
    ...HIDDEN_HOME_PATHS.map((path) => resolve(context.userHome, path)),
  ];
  hiddenPathsMemo.set(context, {
    kimiHome: context.kimiHome,
    userHome: context.userHome,
    configFiles: context.configFiles,
    paths,
  });
  return paths;
}

const hiddenPathsMemo = new WeakMap<
  HiddenPathsContext,
  {
    kimiHome: string;
    userHome: string;
    configFiles: HiddenPathsContext['configFiles'];
    paths: readonly string[];
  }
>();
