import { realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isWithinDirectory } from '../util/path-within.js';
import { HOME_CREDENTIALS } from './home-credentials.js';
import { secretNameReason } from './secret-file-names.js';

export { secretNameReason };

/** The homes the sensitive classifier looks in. */
export interface SensitiveHomes {
  /** The user's home (`$HOME`). */
  readonly userHome: string;
  /** kimi-ts's own home (`KIMI_TS_HOME`, else `~/.kimi-ts`): config, credentials, tokens, sessions. */
  readonly kimiHome: string;
  /**
   * Every config file the agent loaded from elsewhere (`--config-file`, `--mcp-config-file`): they
   * hold its keys wherever they are.
   */
  readonly configFiles?: readonly string[] | undefined;
}

/**
 * Files and folders under the user's home, relative to it: the person's credentials, and Kimi CLI's
 * whole home (its sessions too; commands still see its skills).
 */
const HOME_SECRETS: readonly { path: string; what: string }[] = [
  { path: '.kimi', what: "Kimi CLI's home (config, credentials)" },
  ...HOME_CREDENTIALS,
];
/**
 * A process's own files (`/proc/self/environ` is `/proc/<pid>/environ` by real path): the file tools
 * run in kimi-ts's own process, so `/proc/self` is kimi-ts, with its keys in its environment and
 * memory; other processes' hold the person's. (A sandboxed command has a `/proc` of its own.) A
 * command's word may name the process by an expansion or a glob (`/proc/$PPID/environ`, a `*`).
 */
const PROCESS_FILES = /^\/proc\/(?:\d+|self|thread-self|[^/]*[$`*?[][^/]*)(?:\/|$)/;
const PROCESS_FILES_WHAT =
  "a process's own files (environment, memory, command line: kimi-ts's keys among them)";

/**
 * Below kimi-ts's own home, only plan files (plan mode writes them) and the isolated subagents'
 * worktrees (checkouts of the person's repository) hold nothing secret.
 */
const KIMI_HOME_OPEN_FOLDERS = ['plans', 'worktrees'];

interface Places {
  kimiHome: string;
  /** The loaded config files, by their real paths. */
  configFiles: Set<string>;
  kimiHomeOpen: string[];
  homeSecrets: { path: string; what: string }[];
  /** What every path in homeSecrets starts with (`/home/u/.`): a path without it is in none of them. */
  homeSecretsPrefix: string;
}

/** The absolute places for a pair of homes, worked out once per homes object. */
const placesCache = new WeakMap<SensitiveHomes, Places>();

function placesOf(homes: SensitiveHomes): Places {
  let places = placesCache.get(homes);
  if (!places) {
    const kimiHome = resolve(homes.kimiHome);
    const homeSecrets = HOME_SECRETS.map((secret) => ({
      path: resolve(homes.userHome, secret.path),
      what: secret.what,
    }));
    places = {
      kimiHome,
      configFiles: new Set((homes.configFiles ?? []).map(realPathNow)),
      kimiHomeOpen: KIMI_HOME_OPEN_FOLDERS.map((dir) => join(kimiHome, dir)),
      homeSecrets,
      homeSecretsPrefix: commonPrefix(homeSecrets.map((secret) => secret.path)),
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
  // Worked out at each call, not remembered: for most paths it is a few string compares and one
  // regex test (secretNameReason), less than keeping the answers for a stream of new words did.
  const places = placesOf(homes);
  // No config file loaded from elsewhere (most sessions): no hash of the path made for the look-up.
  if (places.configFiles.size > 0 && places.configFiles.has(realPath))
    return 'a config file the agent loaded (API keys)';
  if (realPath.startsWith('/proc/') && PROCESS_FILES.test(realPath)) return PROCESS_FILES_WHAT;
  if (isWithinDirectory(realPath, places.kimiHome)) {
    const open = places.kimiHomeOpen.some((dir) => isWithinDirectory(realPath, dir));
    if (!open)
      return "the agent's own home (config, API keys, OAuth tokens, MCP and plugin configs, sessions)";
  }
  if (realPath.startsWith(places.homeSecretsPrefix)) {
    for (const secret of places.homeSecrets) {
      if (isWithinDirectory(realPath, secret.path)) return secret.what;
    }
  }
  return secretNameReason(realPath);
}

function commonPrefix(texts: readonly string[]): string {
  let prefix = texts[0] ?? '';
  for (const text of texts) {
    let i = 0;
    while (i < prefix.length && i < text.length && prefix[i] === text[i]) i++;
    prefix = prefix.slice(0, i);
  }
  return prefix;
}

/** The real path of a file named at start-up (it exists: it was just read). */
function realPathNow(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
