import { rsyncWords, wordsAsLine } from './program-word-splits.js';
import type { ShellWord } from './shell-words.js';
import type { ToolRun } from './tool-run.js';

/** rsync's short options whose value is the rest of their word or the next one (`-B SIZE`, `-f RULE`…). */
const VALUE_LETTERS = 'BfMT@';

/**
 * `rsync -e CMD`, `--rsh=CMD` (the remote shell, run here: split by rsync, then the host and the
 * remote command added) and `--rsync-path=CMD` (a line the remote shell runs, arguments added): each
 * a line parsed in turn, the added arguments as `"$@"`. rsync takes options among its operands, so
 * a word an expansion decides (`$opts`, a glob matching a file named `-e…`) may be one: what runs is
 * then unread. Null for a copy with none of these (the default remote shell, ssh, runs rsync there).
 */
export function rsyncRun(args: readonly ShellWord[]): ToolRun | null {
  const lines: (string | null)[] = [];
  let unread = false;
  const shell = (value: string | null | undefined) => {
    if (value === undefined || value === null) lines.push(null);
    else {
      const words = rsyncWords(value);
      if (words !== null && words.length > 0) lines.push(wordsAsLine(words, true));
    }
  };
  const path = (value: string | null | undefined) => {
    if (value === undefined || value === null) lines.push(null);
    else if (value.trim() !== '') lines.push(`${value} "$@"`);
  };
  for (let i = 0; i < args.length; i++) {
    const value = args[i]!.value;
    if (value === null) {
      unread = true;
      continue;
    }
    if (value === '--') break;
    if (value.startsWith('--')) {
      const eq = value.indexOf('=');
      const name = value.slice(2, eq === -1 ? undefined : eq);
      const operand = () => (eq === -1 ? args[++i]?.value : value.slice(eq + 1));
      if (name === 'rsh') shell(operand());
      else if (name.length >= 3 && 'rsync-path'.startsWith(name)) path(operand());
      continue;
    }
    if (!value.startsWith('-')) continue;
    for (let at = 1; at < value.length; at++) {
      const letter = value[at]!;
      if (VALUE_LETTERS.includes(letter)) break;
      if (letter !== 'e') continue;
      const rest = value.slice(at + 1);
      shell(rest !== '' ? rest : args[++i]?.value);
      break;
    }
  }
  if (lines.length === 0 && !unread) return null;
  return {
    why: 'rsync runs the remote shell named in its options',
    words: null,
    lines,
    unread,
    readsInput: false,
  };
}
