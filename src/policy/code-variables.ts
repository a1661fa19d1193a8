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
]);

/** git's variables that name a program it runs, or settings (which can), or where its programs are. */
const GIT_CODE =
  /^GIT_(?:SSH|SSH_COMMAND|PROXY_COMMAND|EXTERNAL_DIFF|PAGER|EDITOR|SEQUENCE_EDITOR|ASKPASS|EXEC_PATH|TEMPLATE_DIR|CONFIG.*)$/;

/** Those whose value is a command line (run by `sh -c`, or a program and its words): parsed in turn. */
const COMMAND_LINES = new Set([
  'PROMPT_COMMAND',
  'EDITOR',
  'VISUAL',
  'PAGER',
  'MANPAGER',
  'SYSTEMD_PAGER',
  'SSH_ASKPASS',
  'SUDO_ASKPASS',
  'RSYNC_RSH',
  'CVS_RSH',
  'BROWSER',
  'GIT_SSH',
  'GIT_SSH_COMMAND',
  'GIT_PROXY_COMMAND',
  'GIT_EXTERNAL_DIFF',
  'GIT_PAGER',
  'GIT_EDITOR',
  'GIT_SEQUENCE_EDITOR',
  'GIT_ASKPASS',
  'LESSOPEN',
  'LESSCLOSE',
]);

/**
 * What setting a code variable runs: a command line to parse in turn (`GIT_PAGER=cat` runs `cat`;
 * LESSOPEN's leading `|`s only say how less reads its output), null for one an expansion decides
 * (any command), or undefined for code the policy cannot read (a start-up file, a library, options).
 */
export function variableCommandLine(name: string, value: string | null): string | null | undefined {
  if (!COMMAND_LINES.has(name)) return undefined;
  if (value === null) return null;
  return name.startsWith('LESS') ? value.replace(/^\|+/, '') : value;
}

export function isCodeVariable(name: string): boolean {
  if (NAMES.has(name)) return true;
  if (name.startsWith('LD_'))
    return name === 'LD_PRELOAD' || name === 'LD_AUDIT' || name === 'LD_LIBRARY_PATH';
  return name.startsWith('GIT_') && GIT_CODE.test(name);
}

/** Whether a declaration or assignment statement's text (`export BASH_ENV=x`, `PS4='$(…)'`) sets one. */
export function setsCodeVariable(text: string): boolean {
  for (const token of text.split(/\s+/)) {
    const eq = token.indexOf('=');
    const name = (eq === -1 ? token : token.slice(0, eq)).replace(/\+$/, '');
    if (isCodeVariable(name)) return true;
  }
  return false;
}

/**
 * Pagers that only show what they are given (`GIT_PAGER=cat`, the commonest form by far): they run
 * nothing of their own, so they add no command to judge (one more per decision, for nothing).
 */
const SHOWS_INPUT = new Set(['cat', 'less', 'more', 'true', ':']);

/** A value that is one program's name or path (`cat`, `less`, `/usr/bin/vim`): no line to parse. */
const ONE_WORD = /^[A-Za-z0-9_./+-]+$/;

/**
 * What setting a code variable runs, as commands of words: its program when the value is one word
 * (`GIT_PAGER=cat`), code nobody reads here, nothing for an empty value; null when the value is a
 * command line to parse in turn.
 */
export function variableCodeWords(name: string, value: string): (readonly ShellWord[])[] | null {
  const line = variableCommandLine(name, value);
  if (line === undefined) return [[CODE_WORD]];
  if (line === null) return [[UNKNOWN_WORD]];
  const trimmed = line.trim();
  if (trimmed === '' || SHOWS_INPUT.has(trimmed)) return [];
  return ONE_WORD.test(trimmed) ? [[{ value: trimmed, text: trimmed, splits: false }]] : null;
}

/**
 * Adds what setting NAME to VALUE runs, if NAME is a code variable: its command line to `nested`, or
 * to `extra` its one program, a command nobody can name (an expansion decides it) or code nobody
 * reads here.
 */
export function addVariableCode(
  name: string,
  value: string | null,
  nested: string[],
  extra: (readonly ShellWord[])[],
): void {
  if (!isCodeVariable(name)) return;
  if (value === null) {
    extra.push(variableCommandLine(name, null) === undefined ? [CODE_WORD] : [UNKNOWN_WORD]);
    return;
  }
  const words = variableCodeWords(name, value);
  if (words === null) nested.push(variableCommandLine(name, value)!);
  else extra.push(...words);
}
