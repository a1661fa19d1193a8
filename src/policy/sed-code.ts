import { might, optionValues, type ProgramCode } from './program-options.js';
import type { ShellWord } from './shell-words.js';

/** `sed SCRIPT`, `sed -e SCRIPT`: whether its script may run a command (`e`, `s///e`). */
export function sedCode(program: string, args: readonly ShellWord[]): ProgramCode | null {
  const why = `${program}'s script runs commands (e)`;
  const scripts = optionValues(args, ['expression'], 'e');
  const files = optionValues(args, ['file'], 'f');
  if (files.includes(null)) return might(why);
  if (scripts.length === 0 && files.length === 0) {
    // The first operand is the script (options with a value: -l N, -f, -e; -i/-E/-n… take none).
    for (let i = 0; i < args.length; i++) {
      const value = args[i]!.value;
      if (value === null) return might(why);
      if (value === '--') {
        scripts.push(args[i + 1]?.value ?? '');
        break;
      }
      if (value.startsWith('-') && value !== '-') {
        if (value === '-l' || value === '--line-length') i++;
        continue;
      }
      scripts.push(value);
      break;
    }
  }
  return scripts.some((script) => script === null || sedRunsCommands(script)) ? might(why) : null;
}

/**
 * Whether a sed script may run a command: an `e` command, or an `s` command with the `e` flag. Read
 * command by command (addresses, `s`/`y` bodies, text and file names skipped); what cannot be read
 * counts as running one.
 */
export function sedRunsCommands(script: string): boolean {
  let i = 0;
  const n = script.length;
  const toLineEnd = (): void => {
    while (i < n && script[i] !== '\n') i++;
  };
  /** Past a delimited part (`/re/`, an s body): false when it does not end. */
  const delimited = (delimiter: string): boolean => {
    for (; i < n; i++) {
      if (script[i] === '\\') i++;
      else if (script[i] === delimiter) {
        i++;
        return true;
      }
    }
    return false;
  };
  while (i < n) {
    const c = script[i]!;
    if (/[\s;{}!]/.test(c)) {
      i++;
      continue;
    }
    // An address: a line number, `$`, `/re/` or `\cREc`, then `,`, `~`, `+` and a second one.
    if (/[0-9$,~+]/.test(c)) {
      i++;
      continue;
    }
    if (c === '/' || c === '\\') {
      const delimiter = c === '/' ? '/' : script[i + 1];
      i += c === '/' ? 1 : 2;
      if (delimiter === undefined || !delimited(delimiter)) return true;
      while (i < n && /[IM]/.test(script[i]!)) i++;
      continue;
    }
    i++;
    switch (c) {
      case 'e':
        return true;
      case 's':
      case 'y': {
        const delimiter = script[i++];
        if (delimiter === undefined || delimiter === '\n' || delimiter === '\\') return true;
        if (!delimited(delimiter) || !delimited(delimiter)) return true;
        if (c === 'y') continue;
        while (i < n && /[0-9gpiImMe]/.test(script[i]!)) if (script[i++] === 'e') return true;
        if (script[i] === 'w') toLineEnd();
        continue;
      }
      case 'a':
      case 'i':
      case 'c':
        // Text to the end of the line, and on past every line that ends with a backslash (`a\`).
        toLineEnd();
        while (i < n && script[i - 1] === '\\') {
          i++;
          toLineEnd();
        }
        continue;
      case 'r':
      case 'R':
      case 'w':
      case 'W':
        toLineEnd();
        continue;
      case 'b':
      case 't':
      case 'T':
      case ':':
        while (i < n && script[i] !== '\n' && script[i] !== ';') i++;
        continue;
      case '#':
        toLineEnd();
        continue;
      default:
        if (/[pdDnNgGhHxlLqQz=FPv]/.test(c)) continue;
        return true;
    }
  }
  return false;
}
