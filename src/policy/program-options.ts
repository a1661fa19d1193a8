import { type ShellWord, UNKNOWN_WORD } from './shell-words.js';

/**
 * Programs whose own options or operands carry code they run: an interpreter's `-c`/`-e` string, an
 * awk program calling system(), a sed script with `e`, tar's and git's options naming a program to
 * run, a make file from `<(…)`. Such a command is never simple (an allow rule for the program does
 * not cover the code), and a deny rule cannot rule it out: a shell command line given as a string is
 * parsed in turn; code in another language might run anything (asked, even in yolo); a command
 * given by an expansion is unknown (denied).
 */
export interface ProgramCode {
  /** Why allow rules cannot cover it. */
  readonly why: string;
  /** Shell command lines it runs, parsed in turn. */
  readonly nested: readonly string[];
  /** Commands it runs as words (`git bisect run CMD …`), or one nobody can name ([UNKNOWN_WORD]). */
  readonly extra: readonly (readonly ShellWord[])[];
  /** Code the policy cannot read: it might run anything. */
  readonly might: boolean;
}

export function might(why: string): ProgramCode {
  return { why, nested: [], extra: [], might: true };
}

/** The values of a program's options among `args` (up to `--`): a literal string, or null when unknown. */
export function optionValues(
  args: readonly ShellWord[],
  longNames: readonly string[],
  shortLetters: string,
  /** Whether a long option's value is only ever attached (`--open-files-in-pager[=CMD]`). */
  attachedOnly = false,
): (string | null)[] {
  const values: (string | null)[] = [];
  for (let i = 0; i < args.length; i++) {
    const value = args[i]!.value;
    if (value === null || value === '--') {
      if (value === '--') break;
      continue;
    }
    if (value.startsWith('--')) {
      const eq = value.indexOf('=');
      const name = value.slice(2, eq === -1 ? undefined : eq);
      // Long options may be abbreviated (getopt and git both take a unique prefix).
      if (name.length < 2 || !longNames.some((long) => long.startsWith(name))) continue;
      if (eq !== -1) values.push(value.slice(eq + 1));
      else if (attachedOnly) values.push('');
      else values.push(args[++i]?.value ?? null);
      continue;
    }
    if (!value.startsWith('-') || shortLetters === '') continue;
    for (let at = 1; at < value.length; at++) {
      if (!shortLetters.includes(value[at]!)) continue;
      const rest = value.slice(at + 1);
      if (rest !== '') values.push(rest);
      else if (attachedOnly) values.push('');
      else values.push(args[++i]?.value ?? null);
      break;
    }
  }
  return values;
}

/** Shell command lines given as option values: each parsed in turn, or unknown when not literal. */
export function commandStrings(why: string, values: readonly (string | null)[]): ProgramCode | null {
  if (values.length === 0) return null;
  const nested: string[] = [];
  const extra: ShellWord[][] = [];
  for (const value of values) {
    if (value === null) extra.push([UNKNOWN_WORD]);
    else if (value !== '') nested.push(value);
  }
  return { why, nested, extra, might: false };
}
