import { rsyncWords, wordsAsLine } from './program-word-splits.js';
import { CODE_WORD, type ShellWord, UNKNOWN_WORD } from './shell-words.js';

/**
 * Environment variables whose value is code a program runs, or a file or library it loads and runs:
 * bash's start-up file and prompt hooks (`BASH_ENV`, `ENV`, `PROMPT_COMMAND`, `PS0`–`PS4`, whose
 * `$(…)` run when expanded), git's and ssh's programs (`GIT_SSH_COMMAND`, `GIT_EXTERNAL_DIFF`,
 * `GIT_CONFIG_*` settings…), less's input filters (`LESSOPEN`), editors and pagers, the dynamic
 * loader's (`LD_PRELOAD`), and the interpreters' start-up options (`NODE_OPTIONS`, `PERL5OPT`…).
 * A command that sets one runs code no deny rule can read (`GIT_SSH_COMMAND='rm -rf x' git fetch`):
 * it cannot be ruled out. Others (`CI=1`, `NODE_ENV=test`) change what a program does, not what runs.
 */
const NAMES = new Set([
  'BASH_ENV',
  'ENV',
  'PROMPT_COMMAND',
  'PS0',
  'PS1',
  'PS2',
  'PS3',
  'PS4',
  'SHELLOPTS',
  'BASHOPTS',
  'LESSOPEN',
  'LESSCLOSE',
  'EDITOR',
  'VISUAL',
  'PAGER',
  'MANPAGER',
  'SYSTEMD_PAGER',
  'SSH_ASKPASS',
  'SUDO_ASKPASS',
  'NODE_OPTIONS',
  'PERL5OPT',
  'PERL5DB',
  'RUBYOPT',
  'PYTHONSTARTUP',
  'PYTHONINSPECT',
  'PYTHONBREAKPOINT',
  'RSYNC_RSH',
  'CVS_RSH',
  'BROWSER',
  'TAR_OPTIONS',
  // make reads them as its own flags (`--eval`, `SHELL=…`) and makefiles (make-code.ts).
  'MAKEFLAGS',
  'MFLAGS',
  'GNUMAKEFLAGS',
  'MAKEFILES',
]);

/** git's variables that name a program it runs, or settings (which can), or where its programs are. */
const GIT_CODE =
  /^GIT_(?:SSH|SSH_COMMAND|PROXY_COMMAND|EXTERNAL_DIFF|PAGER|EDITOR|SEQUENCE_EDITOR|ASKPASS|EXEC_PATH|TEMPLATE_DIR|CONFIG.*)$/;

/**
 * Those whose value is a command line (run by `sh -c`, or a program and its words): parsed in turn.
 * git runs its own through `sh -c 'VALUE "$@"'` with its arguments after (the host, the file to
 * edit…): the line read is the same, arguments nobody here names as `"$@"`. GIT_SSH is run as a
 * program with no shell (a name with spaces in it is one word); RSYNC_RSH is split by rsync itself.
 */
const RUN_BY_SHELL: ReadonlySet<string> = new Set([
  'GIT_SSH_COMMAND',
  'GIT_PROXY_COMMAND',
  'GIT_ASKPASS',
  'SSH_ASKPASS',
  'SUDO_ASKPASS',
  'GIT_EDITOR',
  'GIT_SEQUENCE_EDITOR',
  'EDITOR',
  'VISUAL',
  'GIT_PAGER',
  'PAGER',
  'MANPAGER',
  'SYSTEMD_PAGER',
  'GIT_EXTERNAL_DIFF',
  'RSYNC_CONNECT_PROG',
  'PROMPT_COMMAND',
  'CVS_RSH',
  'BROWSER',
  'LESSOPEN',
  'LESSCLOSE',
]);

/** Whether a variable's value is a command line a program runs (`GIT_SSH_COMMAND='rm -rf x' git fetch`). */
export function isCommandVariable(name: string): boolean {
  return RUN_BY_SHELL.has(name) || name === 'GIT_SSH' || name === 'RSYNC_RSH';
}

/**
 * The command line a variable's value makes a program run: '' for none (not such a variable, or an
 * empty value, which git and rsync ignore), null when an expansion decides the value. LESSOPEN's
 * leading `|`s only say how less reads its output.
 */
export function variableCommandLine(name: string, value: string | null): string | null {
  if (!isCommandVariable(name)) return '';
  if (value === null) return null;
  if (value.trim() === '') return '';
  if (name === 'GIT_SSH') return wordsAsLine([value], true);
  if (name === 'RSYNC_RSH') {
    const words = rsyncWords(value);
    return words === null ? '' : wordsAsLine(words, true);
  }
  return `${name.startsWith('LESS') ? value.replace(/^\|+/, '') : value} "$@"`;
}

/**
 * Adds what setting NAME to VALUE runs: a command variable's line to `nested` (to `extra` a command
 * nobody can name when an expansion decides it), another code variable's code nobody reads here (a
 * start-up file, a library, options) to `extra`; nothing for any other variable.
 */
export function addVariableCode(
  name: string,
  value: string | null,
  nested: string[],
  extra: (readonly ShellWord[])[],
): void {
  if (isCommandVariable(name)) {
    const line = variableCommandLine(name, value);
    if (line === null) extra.push([UNKNOWN_WORD]);
    else if (line !== '') nested.push(line);
  } else if (isCodeVariable(name)) extra.push([CODE_WORD]);
}

/** Whether setting the variable runs code: a command variable's line, or code nobody reads here. */
export function isCodeVariable(name: string): boolean {
  if (NAMES.has(name) || isCommandVariable(name)) return true;
  if (name.startsWith('LD_'))
    return name === 'LD_PRELOAD' || name === 'LD_AUDIT' || name === 'LD_LIBRARY_PATH';
  return name.startsWith('GIT_') && GIT_CODE.test(name);
}

/**
 * Whether a declaration or assignment statement's text (`export BASH_ENV=x`, `PS4='$(…)'`) sets a
 * code variable whose code nobody reads here; a command variable's line is read by
 * assignedCommandLines (shell-assignments.ts).
 */
export function setsCodeVariable(text: string): boolean {
  for (const token of text.split(/\s+/)) {
    const eq = token.indexOf('=');
    const name = (eq === -1 ? token : token.slice(0, eq)).replace(/\+$/, '');
    if (isCodeVariable(name) && !isCommandVariable(name)) return true;
  }
  return false;
}
