import { quoteWord } from './shell-words.js';

/**
 * Command strings some programs split into words themselves, with no shell: rsync's remote shell
 * (`-e 'ssh -p 2'`, `RSYNC_RSH`) and sftp's `-D` server. Each split is the program's own, so what
 * the policy reads is the words the program runs; they are written back as a shell line (each word
 * quoted) so that the line is parsed in turn like any other (wrappers removed, deny rules matched).
 */

/**
 * rsync's split (main.c, do_cmd): words between spaces (tabs are no separator), `'…'` and `"…"`
 * group, a doubled quote inside quotes is one quote character, no backslash escapes. Null when a
 * quote is left open (rsync stops with an error: nothing runs).
 */
export function rsyncWords(text: string): string[] | null {
  const words: string[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] === ' ') {
      i++;
      continue;
    }
    let word = '';
    let quote = '';
    for (; i < text.length && (text[i] !== ' ' || quote !== ''); i++) {
      const c = text[i]!;
      if (c === "'" || c === '"') {
        if (quote === '') {
          quote = c;
          continue;
        }
        if (c === quote) {
          if (text[i + 1] !== quote) {
            quote = '';
            continue;
          }
          i++; // a doubled quote: one quote character
        }
      }
      word += c;
    }
    if (quote !== '') return null;
    words.push(word);
  }
  return words;
}

/**
 * OpenSSH's split (misc.c, argv_split, ending at a `#` that starts a word): words between spaces and
 * tabs, `'…'` and `"…"` group, a backslash escapes a quote, a backslash or (outside quotes) a space
 * and is kept before anything else. Null when a quote is left open (an error: nothing runs).
 */
export function sshArgvWords(text: string): string[] | null {
  const words: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    }
    if (c === '#') break;
    let word = '';
    let quote = '';
    for (; i < text.length; i++) {
      const d = text[i]!;
      const next = text[i + 1];
      if (d === '\\') {
        if (next === "'" || next === '"' || next === '\\' || (quote === '' && next === ' ')) {
          word += next;
          i++;
        } else word += d;
      } else if (quote === '' && (d === ' ' || d === '\t')) break;
      else if (quote === '' && (d === '"' || d === "'")) quote = d;
      else if (quote !== '' && d === quote) quote = '';
      else word += d;
    }
    if (quote !== '') return null;
    words.push(word);
  }
  return words;
}

/**
 * A shell line that runs `words`, then (with `more`) arguments the program adds that nobody here
 * names (`"$@"`: rsync's host and server command); '' for no words.
 */
export function wordsAsLine(words: readonly string[], more: boolean): string {
  if (words.length === 0) return '';
  const line = words.map(quoteWord).join(' ');
  return more ? `${line} "$@"` : line;
}
