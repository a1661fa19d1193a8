import { basename, join, resolve } from 'node:path';
import { isWithinDirectory } from './path-within.js';

/** The homes the sensitive classifier looks in. */
export interface SensitiveHomes {
  /** The user's home (`$HOME`). */
  readonly userHome: string;
  /** kimi-ts's own home (`KIMI_TS_HOME`, else `~/.kimi-ts`): config, credentials, tokens, sessions. */
  readonly kimiHome: string;
}

/** `.env.*` files that by convention hold placeholders, not secrets. */
const HARMLESS_ENV_FILES = new Set([
  '.env.example',
  '.env.sample',
  '.env.template',
  '.env.dist',
  '.env.defaults',
]);
/** File names that hold secrets wherever they are. */
const SECRET_NAMES = new Set(['.env', 'credentials', '.netrc', '_netrc', '.git-credentials', '.pgpass']);
const SHELL_HISTORIES = new Set([
  '.bash_history',
  '.zsh_history',
  '.sh_history',
  '.history',
  '.python_history',
  '.node_repl_history',
  '.psql_history',
  '.mysql_history',
  'fish_history',
]);
/** Files and folders under the user's home, relative to it. */
const HOME_SECRETS: readonly { path: string; what: string }[] = [
  { path: '.ssh', what: 'an SSH folder' },
  { path: '.aws/credentials', what: 'AWS credentials' },
  { path: '.netrc', what: 'a .netrc file' },
  { path: '.npmrc', what: 'an .npmrc file (registry tokens)' },
  { path: '.pypirc', what: 'a .pypirc file (registry tokens)' },
  { path: '.config/gcloud', what: 'Google Cloud credentials' },
  { path: '.docker/config.json', what: 'Docker credentials' },
  { path: '.kube/config', what: 'a Kubernetes config' },
  { path: '.git-credentials', what: 'Git credentials' },
  { path: '.gnupg', what: 'a GnuPG folder' },
  { path: '.config/gh/hosts.yml', what: 'GitHub CLI tokens' },
  { path: '.kimi', what: "Kimi CLI's home (config, credentials)" },
];
/** Below kimi-ts's own home, only plan files hold nothing secret (plan mode writes them). */
const KIMI_HOME_OPEN_FOLDERS = ['plans'];

interface Places {
  kimiHome: string;
  kimiHomeOpen: string[];
  homeSecrets: { path: string; what: string }[];
}

/** The absolute places for a pair of homes, worked out once per homes object. */
const placesCache = new WeakMap<SensitiveHomes, Places>();

function placesOf(homes: SensitiveHomes): Places {
  let places = placesCache.get(homes);
  if (!places) {
    const kimiHome = resolve(homes.kimiHome);
    places = {
      kimiHome,
      kimiHomeOpen: KIMI_HOME_OPEN_FOLDERS.map((dir) => join(kimiHome, dir)),
      homeSecrets: HOME_SECRETS.map((secret) => ({
        path: resolve(homes.userHome, secret.path),
        what: secret.what,
      })),
    };
    placesCache.set(homes, places);
  }
  return places;
}

/**
 * Why a file (by its real path) holds secrets, or null. Reading, searching or listing such a file
 * needs an approval that names it as secret, and is refused where no person can answer.
 */
export function sensitiveReason(realPath: string, homes: SensitiveHomes): string | null {
  const places = placesOf(homes);
  if (isWithinDirectory(realPath, places.kimiHome)) {
    const open = places.kimiHomeOpen.some((dir) => isWithinDirectory(realPath, dir));
    if (!open)
      return "the agent's own home (config, API keys, OAuth tokens, MCP and plugin configs, sessions)";
  }
  for (const secret of places.homeSecrets) {
    if (isWithinDirectory(realPath, secret.path)) return secret.what;
  }
  return secretNameReason(realPath);
}

/**
 * The part of the classifier that needs only the file's name (dotenv files, private keys,
 * credentials files, shell histories): for paths relative to some root, e.g. checkpoint snapshots.
 */
export function secretNameReason(path: string): string | null {
  const realPath = path.replaceAll('\\', '/');
  const name = basename(realPath);
  if (HARMLESS_ENV_FILES.has(name)) return null;
  if (name === '.env' || name.startsWith('.env.')) return 'a dotenv file';
  if (SECRET_NAMES.has(name)) return 'a credentials file';
  if (SHELL_HISTORIES.has(name)) return 'a shell history';
  if (name.endsWith('.pem') || name.endsWith('.key') || name.endsWith('.p12') || name.endsWith('.pfx')) {
    return 'a private key';
  }
  if (name.startsWith('id_') && !name.endsWith('.pub')) return 'a private key';
  if (realPath.replaceAll('\\', '/').endsWith('/.gcp/credentials')) return 'Google Cloud credentials';
  return null;
}
