/** Bash's reserved words as the plain splitters (plain-command-line.ts, plain-loop.ts) read them. */

/** Words the grammar reads as keywords or declarations wherever they stand. */
export const KEYWORDS: ReadonlySet<string> = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'case',
  'esac',
  'for',
  'select',
  'while',
  'until',
  'do',
  'done',
  'in',
  'function',
  'time',
  'coproc',
  'declare',
  'typeset',
  'export',
  'readonly',
  'local',
  'unset',
  'unsetenv',
]);

/** Whether the first word (after blanks) is lower-case letters in KEYWORDS, followed by a blank or the end. */
export function startsWithKeyword(command: string): boolean {
  let start = 0;
  while (start < command.length && (command[start] === ' ' || command[start] === '\t')) start++;
  let end = start;
  while (end < command.length) {
    const code = command.charCodeAt(end);
    if (code < 0x61 || code > 0x7a) break; // a-z
    end++;
  }
  if (end === start || (end < command.length && command[end] !== ' ' && command[end] !== '\t')) return false;
  return KEYWORDS.has(command.slice(start, end));
}
