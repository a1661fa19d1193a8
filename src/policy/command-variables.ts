import { rsyncWords, wordsAsLine } from './program-word-splits.js';

/**
 * Variables whose value a program runs as a command (issue 24): `GIT_SSH_COMMAND='rm -rf x' git
 * fetch` runs rm, whatever the command's own words say. Set before a command, through `env` or
 * `sudo`, or for the commands after it (`export`, `declare -x`, a plain assignment), the value is a
 * command line deny rules must see. Other variables change how a command behaves too (PATH,
 * LD_PRELOAD): they are never simple (shell-part-analysis.ts), but run no command written in them.
 *
 * git runs these through `sh -c 'VALUE "$@"'` with its own arguments after (the host, the file to
 * edit…): the line read is the same, arguments nobody here names as `"$@"`. GIT_SSH is run as a
 * program with no shell (a name with spaces in it is one word); RSYNC_RSH is split by rsync itself.
 */
const RUN_BY_SHELL: ReadonlySet<string> = new Set([
  'GIT_SSH_COMMAND',
  'GIT_PROXY_COMMAND',
  'GIT_ASKPASS',
  'SSH_ASKPASS',
  'GIT_EDITOR',
  'GIT_SEQUENCE_EDITOR',
  'EDITOR',
  'VISUAL',
  'GIT_PAGER',
  'PAGER',
  'GIT_EXTERNAL_DIFF',
  'RSYNC_CONNECT_PROG',
]);

export function isCommandVariable(name: string): boolean {
  return RUN_BY_SHELL.has(name) || name === 'GIT_SSH' || name === 'RSYNC_RSH';
}

/**
 * The command line a variable's value makes a program run: '' for none (not such a variable, or an
 * empty value, which git and rsync ignore), null when an expansion decides the value.
 */
export function variableCommandLine(name: string, value: string | null): string | null {
  if (!isCommandVariable(name)) return '';
  if (value === null) return null;
  if (value.trim() === '') return '';
  if (name === 'GIT_SSH') return wordsAsLine([value], true);
  if (name === 'RSYNC_RSH') {
    const words = rsyncWords(value);
    return words === null ? '' : wordsAsLine(words, true);
  }
  return `${value} "$@"`;
}
