import { isInputFile } from './input-files.js';
import { might, optionValues, type ProgramCode } from './program-options.js';
import type { ShellWord } from './shell-words.js';

/**
 * make's own variables that change what runs: the program recipes are run by and its flags, the
 * flags make reads as its own (`--eval`, variables set as on its command line), more makefiles to
 * read. Set on the command line (`make SHELL=… all`) or, the last three, in its environment
 * (code-variables.ts).
 */
const RUNS_CODE = new Set([
  'SHELL',
  '.SHELLFLAGS',
  'MAKESHELL',
  'MAKEFLAGS',
  'MFLAGS',
  'GNUMAKEFLAGS',
  'MAKEFILES',
]);

/** `NAME=value`, `NAME:=value`, `NAME+=value`, `NAME?=value`, `NAME!=value`, `override NAME=…`: a variable make sets. */
const ASSIGNMENT = /^([^\s=:+?!]+)\s*(?:::?=|:::=|[+?!]?=)/;

/**
 * What a value given on make's command line could run where a recipe expands it (`make CC='rm -rf
 * x;'`: `$(CC) -c …` is that line): a shell's operators or expansions, or make's own functions
 * that run or read code (`$(shell …)`, `$(eval …)`). A plain value (`CC=clang`, `PREFIX=/usr`) runs
 * no more than the recipe as written.
 */
const VALUE_RUNS = /[;&|`<>\n]|\$[({]/;

/**
 * `make -f -` and `--eval` (code given here or read from its input), a makefile an expansion names,
 * and variables given on its command line whose value a recipe may run (above): code no deny rule
 * reads. A makefile named by a literal path is make's own business, as a script is its shell's.
 */
export function makeCode(args: readonly ShellWord[]): ProgramCode | null {
  const files = optionValues(args, ['file', 'makefile'], 'f');
  if (files.includes(null)) return might('make runs a makefile an expansion names');
  // `make -f -` reads its makefile (recipes: command lines) from its input.
  if (files.some((file) => file === '-' || isInputFile(file ?? '')))
    return might('make runs the makefile it reads from its input');
  // A word an expansion decides that starts as an option (`--eval=$'…'`) may be --eval.
  if (args.some((word) => word.value === null && (word.splits || word.text.startsWith('-'))))
    return might('make runs options an expansion decides');
  if (optionValues(args, ['eval'], 'E').length > 0) return might('make --eval runs rules given as a string');
  for (const word of args) {
    const why = variableCode(word);
    if (why !== null) return might(why);
  }
  return null;
}

/** Why a `NAME=value` word on make's command line runs code; null for any other word. */
function variableCode(word: ShellWord): string | null {
  const text = word.value ?? word.text;
  if (text.startsWith('-') || !text.includes('=')) return null;
  const found = ASSIGNMENT.exec(text);
  if (found === null) return null;
  const name = found[1]!;
  if (RUNS_CODE.has(name)) return `make's ${name} changes what its recipes run`;
  // A value an expansion decides (`CFLAGS="$x"`) may hold anything a recipe then runs.
  if (word.value === null)
    return `make's ${name} is set to a value an expansion decides, which a recipe may run`;
  const value = text.slice(found[0].length);
  return VALUE_RUNS.test(value) ? `make's ${name} holds code a recipe may run` : null;
}
