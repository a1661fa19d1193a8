import { isInputFile } from './input-files.js';
import { commandStrings, might, optionValues, type ProgramCode } from './program-options.js';
import type { ShellWord } from './shell-words.js';

/**
 * Programs that run a command line or code given in their options, operands or input, beyond the
 * interpreters of program-code.ts: Tcl (`exec`), sqlite3's `.shell`/`.system`, vi's and ex's `!`,
 * ed's `!`, zip's test command (npx and npm exec: package-runners.ts). A shell command line written out here is parsed
 * in turn (a deny rule matches what it runs); code in their own language, or commands read from their
 * input, might run anything: it cannot be ruled out.
 */
type Reader = (program: string, args: readonly ShellWord[]) => ProgramCode | null;

/** Tcl shells: `tclsh` with no script (or /dev/stdin) reads code from its input; `expect -c CODE`. */
function tclCode(program: string, args: readonly ShellWord[]): ProgramCode | null {
  const first = args[0];
  if (program === 'expect' && optionValues(args, [], 'c').length > 0) return might('expect -c runs Tcl code');
  if (first === undefined || first.value === null || first.value === '-' || isInputFile(first.value))
    return might(`${program} runs the Tcl code it reads (exec runs any command)`);
  if (first.value.startsWith('-') && program !== 'wish') return might(`${program} runs Tcl code`);
  return null;
}

/** sqlite3's dot commands that hand a command line to the shell. */
const SQLITE_SHELL = /^\s*\.(?:shell|system)\s+([\s\S]*)$/;

/**
 * `sqlite3 DB '.shell CMD'`: CMD is a shell command line; with no SQL operand it reads statements
 * (and dot commands) from its input; `-init FILE` and `-cmd` run more of them.
 */
function sqliteCode(_program: string, args: readonly ShellWord[]): ProgramCode | null {
  const why = 'sqlite3 runs dot commands, which can run a shell command line';
  const lines: (string | null | undefined)[] = [];
  let operands = 0;
  for (let i = 0; i < args.length; i++) {
    const value = args[i]!.value;
    if (value === null) return might(why);
    if (value.startsWith('-') && operands === 0) {
      const option = value.replace(/^--?/, '');
      if (option === 'init') return might(why);
      if (option === 'cmd') {
        const command = args[++i]?.value ?? null;
        if (command === null || /^\s*\./.test(command)) lines.push(shellLineOf(command));
      } else if (
        /^(?:separator|newline|nullvalue|vfs|mmap|pagecache|lookaside|heap|maxsize|A|limit)$/.test(option)
      )
        i++;
      continue;
    }
    operands++;
    if (operands > 1) lines.push(shellLineOf(value));
  }
  if (operands < 2) return might(`${why}; it reads them from its input`);
  const found = lines.filter((line): line is string | null => line !== undefined);
  return found.length === 0 ? null : commandStrings(why, found);
}

/** The command line of `.shell CMD` / `.system CMD`; undefined for SQL or another dot command. */
function shellLineOf(text: string | null): string | null | undefined {
  if (text === null) return null;
  // Several statements or dot commands may share the operand, one per line.
  for (const line of text.split('\n')) {
    const found = SQLITE_SHELL.exec(line);
    if (found) return found[1]!;
    if (/^\s*\.(?:sh|sys|once|output|o|open|read|load|import|excel|e)/.test(line)) return null;
  }
  return undefined;
}

/**
 * vi's family: `-c CMD`, `+CMD`, `--cmd CMD` run ex commands; `!CMD` among them is a shell line
 * (parsed in turn), any other might call system(); `-S FILE`, `-s FILE` and ex mode (`-e`, `-E`,
 * `-es`, the `ex` name: commands from its input) run commands nobody reads here.
 */
function viCode(program: string, args: readonly ShellWord[]): ProgramCode | null {
  const why = `${program} runs editor commands, which can run any command`;
  if (program === 'ex') return might(`${why}; ex reads them from its input`);
  const commands: (string | null)[] = [];
  for (let i = 0; i < args.length; i++) {
    const value = args[i]!.value;
    if (value === null) return might(why);
    if (value === '--') break;
    if (value === '-c' || value === '--cmd') commands.push(args[++i]?.value ?? null);
    else if (value.startsWith('+') && !/^\+[0-9]*$/.test(value)) commands.push(value.slice(1));
    else if (value === '-u' || value === '-U') {
      // A vimrc of its own: commands nobody reads here (NONE, NORC and DEFAULTS load none).
      const file = args[++i]?.value ?? null;
      if (file === null || !/^(?:NONE|NORC|DEFAULTS)$/.test(file)) return might(why);
    } else if (/^-[A-Za-z]*[eEsSy]/.test(value) && !value.startsWith('--')) return might(why);
  }
  if (commands.length === 0) return null;
  const lines: (string | null)[] = [];
  for (const command of commands) {
    if (command !== null && QUITS_OR_WRITES.test(command)) continue;
    const bang = command === null ? null : /^[\s:]*!([\s\S]*)$/.exec(command);
    if (bang) lines.push(bang[1]!);
    else return might(why);
  }
  return commandStrings(why, lines);
}

/** Ex commands that only write the file or quit (`-c q`, `+wq`): they run nothing. */
const QUITS_OR_WRITES = /^[\s:]*(?:q|qa|qall|quit|wq|wqa|x|xa|w|write|update)!?\s*$/;

/** `zip -TT CMD`, `--unzip-command CMD`: zip runs CMD by a shell to test the archive. */
function zipCode(_program: string, args: readonly ShellWord[]): ProgramCode | null {
  const commands: (string | null)[] = [];
  for (let i = 0; i < args.length; i++) {
    const value = args[i]!.value;
    if (value === null) continue;
    if (value === '-TT' || value === '--unzip-command') commands.push(args[++i]?.value ?? null);
    else if (value.startsWith('-TT')) commands.push(value.slice(3));
    else if (value.startsWith('--unzip-command=')) commands.push(value.slice('--unzip-command='.length));
  }
  return commandStrings('zip -TT runs its string as a command line', commands);
}

export const RUNNER_READERS: ReadonlyMap<string, Reader> = new Map<string, Reader>([
  ['tclsh', tclCode],
  ['wish', tclCode],
  ['expect', tclCode],
  ['sqlite3', sqliteCode],
  ['vi', viCode],
  ['vim', viCode],
  ['nvim', viCode],
  ['view', viCode],
  ['vimdiff', viCode],
  ['gvim', viCode],
  ['ex', viCode],
  ['ed', (program) => might(`${program} runs the commands it reads (! runs a command line)`)],
  ['zip', zipCode],
]);
