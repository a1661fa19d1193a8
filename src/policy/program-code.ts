import { RUNNER_READERS } from './command-runner-code.js';
import { gitCode } from './git-code.js';
import { isInputFile } from './input-files.js';
import { makeCode } from './make-code.js';
import { commandStrings, might, optionValues, type ProgramCode } from './program-options.js';
import { sedCode } from './sed-code.js';
import type { ShellWord } from './shell-words.js';

export type { ProgramCode } from './program-options.js';

/** The programs programCode reads, by name (python's versions are matched apart). */
type Reader = (program: string, args: readonly ShellWord[]) => ProgramCode | null;
const READERS: ReadonlyMap<string, Reader> = new Map<string, Reader>([
  ['awk', awkCode],
  ['gawk', awkCode],
  ['mawk', awkCode],
  ['nawk', awkCode],
  ['sed', sedCode],
  ['gsed', sedCode],
  ['tar', (_program, args) => tarCode(args)],
  ['gtar', (_program, args) => tarCode(args)],
  ['bsdtar', (_program, args) => tarCode(args)],
  ['make', (_program, args) => makeCode(args)],
  ['gmake', (_program, args) => makeCode(args)],
  ['script', (_program, args) => scriptCode(args)],
  ['git', (_program, args) => gitCode(args)],
  ['su', userShellCode],
  ['runuser', userShellCode],
]);

/** The code a program runs through its options, or null when it runs none the policy knows of. */
export function programCode(program: string, args: readonly ShellWord[]): ProgramCode | null {
  // One lookup for most commands (`ls`, `npm`, `cat`): none of these.
  const reader = READERS.get(program);
  if (reader !== undefined) return reader(program, args);
  const runner = RUNNER_READERS.get(program);
  if (runner !== undefined) return runner(program, args);
  const interpreter = interpreterOf(program);
  return interpreter === undefined ? null : interpreterCode(program, interpreter, args);
}

/** An interpreter's options: the ones whose value is code, and those that take the next word. */
interface Interpreter {
  readonly codeShort: string;
  readonly codeLong: readonly string[];
  readonly argShort: string;
  readonly argLong: readonly string[];
  /** Options after which the interpreter runs a module, not code given here (`python3 -m http.server`). */
  readonly moduleShort: string;
}

const PYTHON: Interpreter = { codeShort: 'c', codeLong: [], argShort: 'WXQ', argLong: [], moduleShort: 'm' };
const INTERPRETERS: Readonly<Record<string, Interpreter>> = {
  perl: { codeShort: 'eE', codeLong: [], argShort: '', argLong: [], moduleShort: '' },
  ruby: { codeShort: 'e', codeLong: [], argShort: 'Ir', argLong: [], moduleShort: '' },
  node: {
    codeShort: 'ep',
    codeLong: ['--eval', '--print'],
    argShort: 'rC',
    argLong: ['--require', '--import', '--loader', '--conditions', '--input-type'],
    moduleShort: '',
  },
  php: { codeShort: 'rR', codeLong: [], argShort: 'cdz', argLong: [], moduleShort: '' },
  lua: { codeShort: 'e', codeLong: [], argShort: 'l', argLong: [], moduleShort: '' },
  Rscript: { codeShort: 'e', codeLong: [], argShort: '', argLong: [], moduleShort: '' },
  osascript: { codeShort: 'e', codeLong: [], argShort: '', argLong: [], moduleShort: '' },
};
const ALIASES: Readonly<Record<string, string>> = { nodejs: 'node', bun: 'node', luajit: 'lua' };

function interpreterOf(program: string): Interpreter | undefined {
  if (program.startsWith('py') && /^(?:python|pypy)[0-9.]*$/.test(program)) return PYTHON;
  return Object.hasOwn(INTERPRETERS, program) || Object.hasOwn(ALIASES, program)
    ? INTERPRETERS[ALIASES[program] ?? program]
    : undefined;
}

/** Options with which an interpreter prints its version or help and exits (not `-v`: verbose to python, ruby). */
const ONLY_SAYS = /^--(?:version|help)$/;

/**
 * `python3 -c CODE`, `perl -ne CODE`, `node --eval=CODE`: code. With no script (it reads its code
 * from its input) or a script an expansion names (`<(…)`, `$f`): code the policy cannot see. A
 * literal script file is the interpreter's own business, as `bash x.sh` is.
 */
function interpreterCode(program: string, spec: Interpreter, args: readonly ShellWord[]): ProgramCode | null {
  for (let i = 0; i < args.length; i++) {
    const value = args[i]!.value;
    if (value === null) return might(`${program} runs code an expansion decides`);
    if (ONLY_SAYS.test(value)) return null; // `python3 --version`: prints and exits
    if (value === '--' || value === '-' || !value.startsWith('-')) {
      const script = value === '--' ? args[i + 1] : args[i];
      if (
        script === undefined ||
        script.value === '-' ||
        (script.value !== null && isInputFile(script.value))
      )
        break;
      return script.value === null ? might(`${program} runs a script an expansion names`) : null;
    }
    if (value.startsWith('--')) {
      const name = value.split('=')[0]!;
      if (spec.codeLong.includes(name)) return might(`${program} ${name} runs code given as a string`);
      if (spec.argLong.includes(name) && !value.includes('=')) i++;
      continue;
    }
    for (let at = 1; at < value.length; at++) {
      const letter = value[at]!;
      if (spec.codeShort.includes(letter)) return might(`${program} -${letter} runs code given as a string`);
      if (spec.moduleShort.includes(letter)) return null;
      if (spec.argShort.includes(letter)) {
        if (at === value.length - 1) i++;
        break;
      }
    }
  }
  return might(`${program} runs the code it reads from its input`);
}

/** What awk programs run commands with: system(), pipes to and from commands, extensions. */
const AWK_RUNS = /system|\||@load|@include/;

function awkCode(program: string, args: readonly ShellWord[]): ProgramCode | null {
  const why = `${program}'s program runs commands`;
  let fromFile = false;
  for (let i = 0; i < args.length; i++) {
    const value = args[i]!.value;
    if (value === null) return might(why);
    if (value === '--') {
      const text = args[i + 1]?.value;
      return fromFile || text === undefined || (text !== null && !AWK_RUNS.test(text)) ? null : might(why);
    }
    if (!value.startsWith('-') || value === '-') {
      return fromFile || !AWK_RUNS.test(value) ? null : might(why);
    }
    const [flag, attached] = value.startsWith('--')
      ? [value.split('=')[0]!, value.includes('=') ? value.slice(value.indexOf('=') + 1) : undefined]
      : [value.slice(0, 2), value.length > 2 ? value.slice(2) : undefined];
    const operand = attached ?? args[i + 1]?.value ?? null;
    if (
      attached === undefined &&
      /^-[fvFeEil]$|^--(?:file|assign|field-separator|source|exec|include|load)$/.test(flag)
    )
      i++;
    if (
      flag === '-f' ||
      flag === '--file' ||
      flag === '-E' ||
      flag === '--exec' ||
      flag === '-i' ||
      flag === '--include'
    ) {
      if (operand === null) return might(why);
      fromFile = true;
    }
    if (flag === '-l' || flag === '--load') return might(`${program} -l loads a library`);
    if (flag === '-e' || flag === '--source') {
      if (operand === null || AWK_RUNS.test(operand)) return might(why);
      fromFile = true;
    }
  }
  return null;
}

/** tar's options that name a program to run (`--to-command`, `-I`/`--use-compress-program`, `-F`…). */
const TAR_PROGRAM_OPTIONS = [
  'to-command',
  'use-compress-program',
  'info-script',
  'new-volume-script',
  'rsh-command',
  'rmt-command',
];

function tarCode(args: readonly ShellWord[]): ProgramCode | null {
  const why = 'tar runs a program named in its options';
  // The first word may bundle old-style letters (`xIf`): I and F there name programs.
  const first = args[0]?.value;
  if (first && !first.startsWith('-') && /[IF]/.test(first)) return might(why);
  const values = optionValues(args, TAR_PROGRAM_OPTIONS, 'IF');
  for (const action of optionValues(args, ['checkpoint-action'], '')) {
    if (action === null) values.push(null);
    else if (action.startsWith('exec=')) values.push(action.slice(5));
  }
  return commandStrings(why, values);
}

/**
 * `su -c CMD`, `runuser -c CMD` (a command line for the user's shell); `runuser -u USER -- CMD …`
 * (the words after `--`); otherwise a shell reading its input.
 */
function userShellCode(program: string, args: readonly ShellWord[]): ProgramCode | null {
  const commands = optionValues(args, ['command', 'session-command'], 'c');
  if (commands.length > 0) return commandStrings(`${program} -c runs its string as a command line`, commands);
  const end = args.findIndex((word) => word.value === '--');
  if (end !== -1 && end < args.length - 1) {
    return { why: `${program} runs another command`, nested: [], extra: [args.slice(end + 1)], might: false };
  }
  return might(`${program} runs a shell, or a command it is given`);
}

/** `script -c CMD`: CMD is run by a shell; without it, a shell reading its input. */
function scriptCode(args: readonly ShellWord[]): ProgramCode | null {
  const commands = optionValues(args, ['command'], 'c');
  if (commands.length === 0) return might('script runs a shell that reads its input');
  return commandStrings('script -c runs its string as a command line', commands);
}
