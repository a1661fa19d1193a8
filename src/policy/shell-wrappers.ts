import { builtinArithmetic, mayEvaluateArithmetic } from './arithmetic-code.js';
import { addVariableCode } from './code-variables.js';
import { isInputFile } from './input-files.js';
import { packageRun } from './package-runners.js';
import { programCode } from './program-code.js';
import { CODE_WORD, type ShellWord, UNKNOWN_WORD } from './shell-words.js';
import { toolRun } from './tool-wrappers.js';
import { readWrapperOptions, WRAPPERS } from './wrapper-options.js';

/** What a command really runs once the programs that run another command are looked through. */
export interface Unwrapped {
  /** The command as written, then with each wrapper removed: `sudo nice rm x` → that, `nice rm x`, `rm x`. */
  readonly stages: readonly (readonly ShellWord[])[];
  /** Other commands it runs: `find … -exec rm {} ;` runs `rm …`; `xargs rm` runs `rm …`. */
  readonly extra: readonly (readonly ShellWord[])[];
  /** Command lines the shell parses in turn: `bash -c 'STRING'`, `eval ARGS`, `env -S 'STRING'`. */
  readonly nested: readonly string[];
  /** Why allow rules cannot cover it (a wrapper, code given as a string, `source`); null if none. */
  readonly runsOther: string | null;
  /** A shell that runs the command lines it reads from its input (`curl … | sh`, `bash <<EOF`). */
  readonly readsInput: boolean;
}

/** Shells whose `-c STRING` is a command line parsed in turn. */
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash', 'posh']);

/**
 * Wrappers that change only when, how long or how fast a command runs, or where its output is
 * buffered (`timeout 5 npm test`, `nice make`): allow rules and prefix approvals cover what they run.
 * `time -o FILE` writes a file: not one of them. Others change who runs it, where, or what it sees.
 */
const TIMING_WRAPPERS = new Set(['timeout', 'nice', 'nohup', 'stdbuf', 'ionice', 'time']);

function onlyTimesOrSlows(
  program: string,
  args: readonly ShellWord[],
  inner: readonly ShellWord[] | null,
): boolean {
  if (!TIMING_WRAPPERS.has(program) || inner === null || inner.length === 0) return false;
  if (program !== 'time') return true;
  const own = args.slice(0, args.length - inner.length);
  return !own.some((word) => /^-[A-Za-z]*[oa]|^--(?:o|a)/.test(word.value ?? '-o'));
}

/** `source`, `.`: run a file's text as shell code here; `alias`, `trap`: code run later. */
const RUNS_CODE_LATER = new Set(['source', '.', 'alias', 'enable', 'hash', 'set', 'shopt']);

export const MAX_NESTING = 3;

export function basename(name: string): string {
  // Most names have no `/`: includes is answered in V8's generated code, lastIndexOf in its runtime
  // (a call out per name; the rules ask it of every part's command name, rule by rule).
  if (!name.includes('/')) return name;
  const slash = name.lastIndexOf('/');
  return slash === -1 ? name : name.slice(slash + 1);
}

/** Looks through wrappers, `find -exec`, `bash -c` and `eval` in a command's words. */
export function unwrap(words: readonly ShellWord[]): Unwrapped {
  const stages: ShellWord[][] = [[...words]];
  const extra: ShellWord[][] = [];
  const nested: string[] = [];
  let runsOther: string | null = null;
  let readsInput = false;
  let current: readonly ShellWord[] = words;
  // Each round removes one wrapper; a command has at most as many wrappers as words.
  for (let round = 0; round < words.length; round++) {
    const name = current[0]?.value;
    if (name === undefined || name === null) break;
    const program = basename(name);
    const rest = current.slice(1);
    if (program === 'find') {
      // What -exec runs is unwrapped in turn (`-exec env rm …`, `-exec sh -c '…'`, `-exec perl -e`).
      for (const command of findExecCommands(rest)) {
        runsOther ??= 'find runs a command of its own (-exec)';
        const inner = unwrap(command);
        extra.push(...inner.stages.map((stage) => [...stage]), ...inner.extra.map((words) => [...words]));
        nested.push(...inner.nested);
        if (inner.readsInput) extra.push([UNKNOWN_WORD]);
      }
      break;
    }
    if (program === 'eval') {
      runsOther ??= 'eval parses its arguments as a command line';
      codeString(rest.length === 0 ? null : joinValues(rest), nested, extra);
      break;
    }
    if (SHELLS.has(program)) {
      if (rest.some((word) => word.value === '--rcfile' || word.value === '--init-file')) {
        // `bash --rcfile <(…) -i`: an interactive shell runs the file first, code nobody reads here.
        runsOther ??= `${program} runs a start-up file it is given`;
        extra.push([CODE_WORD]);
      }
      const code = shellCode(rest);
      if (code === SCRIPT) break; // a script file: the program is the shell itself
      if (code === UNKNOWN_SCRIPT) {
        // `bash <(echo rm -rf x)`, `bash "$f"`: a script nobody can read here.
        runsOther ??= `${program} runs a script an expansion names`;
        extra.push([CODE_WORD]);
        break;
      }
      if (code === INPUT) {
        runsOther ??= `${program} runs the command lines it reads from its input`;
        readsInput = true;
        break;
      }
      runsOther ??= `${program} -c parses its string as a command line`;
      codeString(code, nested, extra);
      break;
    }
    if (program === 'trap') {
      // `trap 'CODE' EXIT`: CODE runs later, in this shell.
      runsOther ??= 'trap runs its string as a command line later';
      const code = rest.find((word) => !word.value?.startsWith('-'));
      if (code) codeString(code.value, nested, extra);
      break;
    }
    if (RUNS_CODE_LATER.has(program)) {
      runsOther ??= `${program} changes what the shell runs`;
      const runs = codeRunLater(program, rest);
      if (runs !== null) extra.push([runs]);
      break;
    }
    if (program === 'mapfile' || program === 'readarray') {
      // `mapfile -C CODE`: CODE runs (with two words added) every few lines read.
      const callback = callbackOf(rest);
      if (callback !== undefined) {
        runsOther ??= `${program} -C runs its string as a command line`;
        codeString(callback, nested, extra);
      }
      break;
    }
    if (mayEvaluateArithmetic(program)) {
      // `let x`, `read a[x]`: arithmetic on a variable runs what its value holds.
      const why = builtinArithmetic(
        program,
        rest.map((word) => word.value),
      );
      if (why !== null) {
        runsOther ??= why;
        extra.push([CODE_WORD]);
      }
      break;
    }
    const dashed = program.startsWith('git-') ? gitDashedCommand(program, rest) : null;
    if (dashed !== null) {
      // `/usr/lib/git-core/git-push …` is `git push …` (git runs its subcommands so).
      runsOther ??= `${program} is git's program for git ${program.slice(4)}`;
      current = dashed;
      stages.push([...current]);
      continue;
    }
    const launched = packageRun(program, rest);
    if (launched !== null) {
      // `npx eslint .`: what runs is judged as a command of its own; a line or a shell reading its
      // input is no simple command (package-runners.ts).
      if (launched.lines.length > 0 || launched.readsInput) runsOther ??= launched.why;
      for (const line of launched.lines) codeString(line, nested, extra);
      if (launched.readsInput) readsInput = true;
      for (const command of launched.commands) {
        const inner = unwrap(command);
        runsOther ??= inner.runsOther;
        extra.push(...inner.stages.map((stage) => [...stage]), ...inner.extra.map((words) => [...words]));
        nested.push(...inner.nested);
        if (inner.readsInput) extra.push([UNKNOWN_WORD]);
      }
      break;
    }
    const carried = programCode(program, rest);
    if (carried !== null) {
      runsOther ??= carried.why;
      nested.push(...carried.nested);
      for (const words of carried.extra) extra.push([...words]);
      if (carried.might) extra.push([CODE_WORD]);
      break;
    }
    const tool = toolRun(program, rest);
    if (tool !== null) {
      runsOther ??= tool.why;
      for (const line of tool.lines) codeString(line, nested, extra);
      if (tool.unread) extra.push([CODE_WORD]);
      if (tool.readsInput) readsInput = true;
      if (tool.words === null || tool.words.length === 0) break;
      current = tool.words;
      stages.push([...current]);
      continue;
    }
    if (WRAPPERS[program] === undefined) break;
    const inner = wrappedCommand(program, rest, nested, extra);
    // A wrapper that only changes when or how fast the command runs is read as the command it runs.
    if (!onlyTimesOrSlows(program, rest, inner)) runsOther ??= `${program} runs another command`;
    if (inner === null || inner.length === 0) break;
    current = program === 'xargs' ? [...inner, UNKNOWN_WORD] : inner;
    stages.push([...current]);
  }
  return { stages, extra, nested, runsOther, readsInput };
}

/** `git-X ARGS` (a program in git's exec path, or any named so): the words of `git X ARGS`; null for others. */
function gitDashedCommand(program: string, args: readonly ShellWord[]): ShellWord[] | null {
  if (!program.startsWith('git-') || program.length === 4) return null;
  const sub = program.slice(4);
  return [{ value: 'git', text: 'git', splits: false }, { value: sub, text: sub, splits: false }, ...args];
}

/**
 * What `source`/`.` of a script an expansion names (`source <(…)`) runs: code nobody reads here
 * (CODE_WORD); what an alias definition or `hash -p` makes a later name run: any command
 * (UNKNOWN_WORD, as a name an expansion decides). Null for the rest (`source ./env.sh`, `alias`).
 */
function codeRunLater(program: string, args: readonly ShellWord[]): ShellWord | null {
  if (program === 'source' || program === '.') {
    const script = args.find((word) => word.value !== '--');
    return script !== undefined && script.value === null ? CODE_WORD : null;
  }
  if (program === 'alias')
    return args.some((word) => word.value?.includes('=') !== false) ? UNKNOWN_WORD : null;
  if (program === 'hash')
    return args.some((word) => word.value === null || /^-\w*p/.test(word.value)) ? UNKNOWN_WORD : null;
  return null;
}

/** `mapfile -C CODE`, `-CCODE`: the callback's string (null when not literal); undefined when none. */
function callbackOf(args: readonly ShellWord[]): string | null | undefined {
  for (let i = 0; i < args.length; i++) {
    const value = args[i]!.value;
    if (value === null) return null;
    if (value === '-C') return args[i + 1]?.value ?? null;
    if (/^-[^-]*C/.test(value)) {
      const rest = value.slice(value.indexOf('C') + 1);
      return rest === '' ? (args[i + 1]?.value ?? null) : rest;
    }
  }
  return undefined;
}

function joinValues(words: readonly ShellWord[]): string | null {
  const values = words.map((word) => word.value);
  return values.every((value) => value !== null) ? values.join(' ') : null;
}

/** A command line to parse in turn, or — when it is not literal — a command nobody can name. */
function codeString(code: string | null, nested: string[], extra: ShellWord[][]): void {
  if (code === null) extra.push([UNKNOWN_WORD]);
  else nested.push(code);
}

const SCRIPT = Symbol('script');
const UNKNOWN_SCRIPT = Symbol('unknown script');
const INPUT = Symbol('input');

/**
 * `bash [options] -c STRING …`: the string (null when not literal); SCRIPT when the shell runs a
 * script file; INPUT when it reads its commands from its input (no operand, `-s`, or `-`). Short
 * options cluster (`-lc`, `-ec`); `-o`/`-O` take a name.
 */
function shellCode(
  args: readonly ShellWord[],
): string | null | typeof SCRIPT | typeof UNKNOWN_SCRIPT | typeof INPUT {
  let readsString = false;
  let readsInput = false;
  for (let i = 0; i < args.length; i++) {
    const value = args[i]!.value;
    if (value === null) return readsString ? null : UNKNOWN_SCRIPT;
    if (value === '-') return readsString ? value : INPUT;
    if (value === '--' || !/^[-+]/.test(value) || value === '+') {
      if (!readsString) {
        const script = value === '--' ? args[i + 1]?.value : value;
        if (readsInput || script === undefined || (script !== null && isInputFile(script))) return INPUT;
        return script === null ? UNKNOWN_SCRIPT : SCRIPT;
      }
      return value === '--' ? (args[i + 1]?.value ?? null) : value;
    }
    if (value === '--rcfile' || value === '--init-file') i++;
    if (value.startsWith('--')) continue;
    if (value.slice(1).includes('c')) readsString = true;
    if (value.slice(1).includes('s')) readsInput = true;
    if (/[oO]$/.test(value)) i++;
  }
  return readsString ? null : INPUT;
}

/** The words after a wrapper's own options (and `NAME=value` words for env and sudo); null if none. */
function wrappedCommand(
  program: string,
  args: readonly ShellWord[],
  nested: string[],
  extra: ShellWord[][],
): readonly ShellWord[] | null {
  let i = 0;
  if (program === 'flock') return flockCommand(args, nested, extra);
  if (program === 'taskset' || program === 'chrt') {
    // `taskset [-c] MASK CMD`, `chrt [-f] PRIO CMD`; with `-p` they change a running process and run nothing.
    i = skipOptions(args, 0, program, nested, extra);
    if (args.slice(0, i).some((word) => /^-\w*p|^--pid/.test(word.value ?? ''))) return null;
    return args.slice(i + 1);
  }
  if (program === 'timeout' || program === 'chroot' || program === 'faketime') {
    i = skipOptions(args, 0, program, nested, extra);
    return args.slice(i + 1); // the duration, chroot's new root, or faketime's time
  }
  i = skipOptions(args, 0, program, nested, extra);
  if (program === 'env' || program === 'sudo') {
    // An assignment whose value an expansion decides is one too (`env BASH_ENV=<(…) bash -c true`).
    for (; i < args.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(args[i]!.value ?? args[i]!.text); i++) {
      // `sudo GIT_SSH_COMMAND=… git fetch`: code the variable runs.
      const { value, text } = args[i]!;
      const eq = (value ?? text).indexOf('=');
      addVariableCode(
        (value ?? text).slice(0, eq),
        value === null ? null : value.slice(eq + 1),
        nested,
        extra,
      );
    }
  }
  if (program === 'nice' && /^-[0-9]+$/.test(args[i]?.value ?? '')) i++;
  if (program === 'command' && args.slice(0, i).some((w) => /^-[a-zA-Z]*[vV]/.test(w.value ?? ''))) {
    return null; // `command -v x` names x, runs nothing
  }
  const rest = args.slice(i);
  return rest.length > 0 ? rest : null;
}

/** `flock [options] FILE CMD …`, `flock FILE -c STRING`, `flock -c STRING` is no form; `flock FD` runs nothing. */
function flockCommand(
  args: readonly ShellWord[],
  nested: string[],
  extra: ShellWord[][],
): readonly ShellWord[] | null {
  const i = skipOptions(args, 0, 'flock', nested, extra);
  const after = args[i + 1]?.value;
  if (after === '-c' || after === '--command') {
    codeString(args[i + 2]?.value ?? null, nested, extra);
    return null;
  }
  const rest = args.slice(i + 1);
  return rest.length > 0 ? rest : null;
}

function skipOptions(
  args: readonly ShellWord[],
  start: number,
  program: string,
  nested: string[],
  extra: ShellWord[][],
): number {
  return readWrapperOptions(program, args, start, (option) => {
    if (program !== 'env' || (option.flag !== '-S' && option.flag !== '--split-string')) return false;
    codeString(option.value ?? null, nested, extra);
    return true; // the string is the command
  });
}

const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/** The commands `find … -exec CMD {} ;` runs: `{}` is a file name, unknown here. */
function findExecCommands(args: readonly ShellWord[]): ShellWord[][] {
  const commands: ShellWord[][] = [];
  for (let i = 0; i < args.length; i++) {
    if (!FIND_EXEC.has(args[i]!.value ?? '')) continue;
    const command: ShellWord[] = [];
    for (i++; i < args.length; i++) {
      const value = args[i]!.value;
      if (value === ';' || value === '+') break;
      command.push(value?.includes('{}') ? UNKNOWN_WORD : args[i]!);
    }
    if (command.length > 0) commands.push(command);
  }
  return commands;
}
