import type { ShellWord } from './shell-words.js';

/**
 * Programs that run a command given in their operands, in a form of their own: in a container
 * (`docker exec box CMD`), on another host (`ssh host CMD`: the words joined are a command line for
 * the remote shell), under a debugger (`gdb --args CMD`), for each input (`parallel CMD ::: …`),
 * as a group (`sg GROUP CMD`), as a line for `sh -c` (`watch CMD`). A deny rule applies to what
 * they run wherever it runs, and none of them is simple. Options not listed here make the rest
 * unknown: what runs is then code the rules cannot rule out.
 */
export interface ToolRun {
  /** Why allow rules cannot cover it. */
  readonly why: string;
  /** The command it runs, as words (unwrapped further: `docker exec box sh -c '…'`); null if none. */
  readonly words: readonly ShellWord[] | null;
  /** Command lines it hands to a shell, parsed in turn; null for one that is not literal. */
  readonly lines: readonly (string | null)[];
  /** It runs code the policy does not read (an option it does not know, gdb's commands). */
  readonly unread: boolean;
  /** It starts a shell that reads its commands from its input (`newgrp`, `sg GROUP`). */
  readonly readsInput: boolean;
}

/** A program's options: long ones with a value, long ones without, short letters with and without. */
export interface Options {
  readonly withValue: ReadonlySet<string>;
  readonly flags: ReadonlySet<string>;
  readonly valueLetters: string;
  readonly flagLetters: string;
}

export function options(
  withValue: string[],
  flags: string[],
  valueLetters: string,
  flagLetters: string,
): Options {
  return { withValue: new Set(withValue), flags: new Set(flags), valueLetters, flagLetters };
}

/** The index past the options from `start` (and a `--`); -1 at an option not known or not literal. */
export function skipOptions(args: readonly ShellWord[], start: number, known: Options): number {
  let i = start;
  while (i < args.length) {
    const value = args[i]!.value;
    if (value === null) return -1;
    if (value === '--') return i + 1;
    if (!value.startsWith('-') || value === '-') return i;
    if (value.startsWith('--')) {
      const name = value.includes('=') ? value.slice(0, value.indexOf('=')) : value;
      if (known.withValue.has(name)) i += value.includes('=') ? 1 : 2;
      else if (known.flags.has(name)) i += 1;
      else return -1;
      continue;
    }
    // A cluster of short letters: flags, then perhaps one letter whose value is attached or next.
    let next = i + 1;
    for (let k = 1; k < value.length; k++) {
      const letter = value[k]!;
      if (known.flagLetters.includes(letter)) continue;
      if (!known.valueLetters.includes(letter)) return -1;
      if (k === value.length - 1) next = i + 2;
      break;
    }
    i = next;
  }
  return i;
}

/** Literal words joined by spaces (how ssh, watch and sg make one command line); null if one is not literal. */
export function joined(words: readonly ShellWord[]): string | null {
  let line = '';
  for (let i = 0; i < words.length; i++) {
    const value = words[i]!.value;
    if (value === null) return null;
    line = i === 0 ? value : `${line} ${value}`;
  }
  return line;
}

export const unreadRun = (why: string): ToolRun => ({
  why,
  words: null,
  lines: [],
  unread: true,
  readsInput: false,
});
export const wordsRun = (why: string, words: readonly ShellWord[] | null): ToolRun => ({
  why,
  words,
  lines: [],
  unread: false,
  readsInput: false,
});
export const lineRun = (why: string, line: string | null): ToolRun => ({
  why,
  words: null,
  lines: [line],
  unread: false,
  readsInput: false,
});

/** A shell it starts reads its commands from its input (`newgrp`, `sg GROUP`, `ssh host`). */
export const inputRun = (why: string): ToolRun => ({
  why,
  words: null,
  lines: [],
  unread: false,
  readsInput: true,
});
