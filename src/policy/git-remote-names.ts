import type { GitWord } from './git-store-read-kinds.js';

/** What a git command says a remote's name leads to. */
export interface RemoteNamed {
  readonly name: string;
  /**
   * A URL, or the remote whose URL it takes over (`git remote rename OLD NEW`): `git ls-remote
   * --get-url` reads either. Null when only run time knows it.
   */
  readonly target: string | null;
  /** `git remote add -f`: it fetches from there at once. */
  readonly fetches: boolean;
}

/**
 * What a `git remote` or `git config` command (its words after the subcommand) says a remote's name
 * leads to: `remote add [-f] [-t BRANCH] [-m BRANCH] NAME URL`, `remote set-url [--push|--add] NAME
 * URL`, `remote rename OLD NEW`, `config [set] remote.NAME.url URL` (and `pushurl`); null for any
 * other command. A later `git fetch NAME` on the same line fetches from there, though the config
 * said nothing of NAME when the line was judged (git-remotes-before.ts).
 */
export function remoteNamed(subcommand: string, rest: readonly GitWord[]): RemoteNamed | null {
  if (subcommand === 'config') return configRemote(rest);
  if (subcommand !== 'remote') return null;
  let k = 0;
  while (rest[k]?.startsWith('-')) k++; // `git remote -v add …`
  const action = rest[k];
  const operands: GitWord[] = [];
  let fetches = false;
  for (k++; k < rest.length; k++) {
    const word = rest[k]!;
    if (word === '--') {
      operands.push(...rest.slice(k + 1));
      break;
    }
    if (word === null || !word.startsWith('-')) operands.push(word);
    else if (word === '-f' || word === '--fetch') fetches = true;
    else if (word === '--delete') return null;
    else if (REMOTE_ADD_VALUED.has(word)) k++;
  }
  const [first, second] = operands;
  if (typeof first !== 'string' || second === undefined) return null;
  switch (action) {
    case 'add':
      return { name: first, target: literal(second), fetches };
    case 'set-url':
      return { name: first, target: literal(second), fetches: false };
    case 'rename':
      return typeof second === 'string' ? { name: second, target: literal(first), fetches: false } : null;
    default:
      return null;
  }
}

/** `git config [set] [--add] remote.NAME.url URL`: the first operand that is such a key, the next its value. */
function configRemote(rest: readonly GitWord[]): RemoteNamed | null {
  for (let k = 0; k + 1 < rest.length; k++) {
    const key = REMOTE_URL_KEY.exec(rest[k] ?? '');
    if (key !== null) return { name: key[1]!, target: literal(rest[k + 1]!), fetches: false };
  }
  return null;
}

/** A word as git gets it, null when the shell makes it at run time. */
function literal(word: GitWord): string | null {
  return word === null || /[$`]/.test(word) ? null : word;
}

/** `remote.NAME.url` and `remote.NAME.pushurl` (section and key in any case; NAME as written). */
const REMOTE_URL_KEY = /^remote\.(.+)\.(?:push)?url$/i;

/** `git remote add`'s options that take the next word as their value. */
const REMOTE_ADD_VALUED: ReadonlySet<string> = new Set(['-t', '-m', '--track', '--master']);
