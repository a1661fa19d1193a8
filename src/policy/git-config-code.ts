import { isPlainSettingName } from './git-config-keys.js';
import { type ShellWord, UNKNOWN_WORD } from './shell-words.js';

/** What git-code.ts gathers of a git command's code. */
export interface GitCode {
  why: string | null;
  nested: string[];
  extra: ShellWord[][];
  might: boolean;
}

/** A few settings people pass with `-c` that run nothing (with git-config-keys.ts's plain settings). */
const SETTINGS_THAT_RUN_NOTHING = new Set([
  'user.name',
  'user.email',
  'color.ui',
  'core.quotepath',
  'core.autocrlf',
  'init.defaultbranch',
  'advice.detachedhead',
  'commit.gpgsign',
  'tag.gpgsign',
  'safe.directory',
  'protocol.file.allow',
  'log.showsignature',
]);

/**
 * A setting `key=value` given to git (`-c`, `clone -c`) or written by `git config`: configuration
 * can name programs git runs — an alias `!cmd` (a command line, parsed in turn), `core.fsmonitor`,
 * `core.pager`, `core.sshCommand`, `include.path`… Only settings that run nothing are left alone;
 * anything else might run code. A setting that is not literal (null) runs a command nobody can name.
 */
export function settingCode(setting: string | null, code: GitCode, why: string): void {
  if (setting === null) {
    code.why ??= why;
    code.extra.push([UNKNOWN_WORD]);
    return;
  }
  const eq = setting.indexOf('=');
  const key = (eq === -1 ? setting : setting.slice(0, eq)).toLowerCase();
  const value = eq === -1 ? '' : setting.slice(eq + 1);
  const dot = key.lastIndexOf('.');
  const sectionAndName = `${key.slice(0, key.indexOf('.'))}.${key.slice(dot + 1)}`;
  if (SETTINGS_THAT_RUN_NOTHING.has(sectionAndName) || isPlainSettingName(sectionAndName)) return;
  code.why ??= why;
  if (key.startsWith('alias.') && value.startsWith('!')) code.nested.push(value.slice(1));
  else {
    code.might = true;
    // git runs these through `sh -c 'VALUE "$@"'`: a deny rule sees the line too (a match denies).
    if (SHELL_COMMAND_SETTINGS.has(key) && value.trim() !== '') code.nested.push(`${value} "$@"`);
  }
}

/** Settings whose value git runs as a command line, its own arguments after (the host, the file). */
const SHELL_COMMAND_SETTINGS = new Set([
  'core.sshcommand',
  'core.editor',
  'core.pager',
  'core.askpass',
  'sequence.editor',
]);

/** `git config`'s options that take the next word. */
const CONFIG_WITH_VALUE = new Set([
  '--file',
  '-f',
  '--blob',
  '--type',
  '--default',
  '--comment',
  '--value',
  '--url',
]);
/** Actions that only read, or remove settings (`--unset`: removing runs nothing). */
const READS = new Set([
  '--get',
  '--get-all',
  '--get-regexp',
  '--get-urlmatch',
  '--get-color',
  '--get-colorbool',
  '--list',
  '-l',
  '--unset',
  '--unset-all',
  '--remove-section',
  'get',
  'list',
  'unset',
  'remove-section',
]);
/** Actions that may write any setting: an editor on the file, a section renamed (to `alias`…). */
const WRITES_ANY = new Set(['--edit', '-e', 'edit', '--rename-section', 'rename-section']);

const WRITES = 'git config writes a setting, which can name a program git runs later';

/**
 * `git config [options] KEY VALUE`, `git config set KEY VALUE`, `--add`, `--replace-all`, with
 * `--global`, `--file`: the setting written (settingCode). Reading (`KEY` alone, `--get`, `get`,
 * `--list`) and removing run nothing.
 */
export function configCommandCode(args: readonly ShellWord[], code: GitCode): void {
  const operands: (string | null)[] = [];
  let reads = false;
  for (let i = 0; i < args.length; i++) {
    const value = args[i]!.value;
    if (value === null || (!value.startsWith('-') && operands.length === 0 && isAction(value))) {
      if (value === null) operands.push(null);
      else if (READS.has(value)) reads = true;
      else if (WRITES_ANY.has(value)) writesAny(code);
      continue;
    }
    if (!value.startsWith('-')) {
      operands.push(value);
      continue;
    }
    if (READS.has(value)) reads = true;
    else if (WRITES_ANY.has(value)) writesAny(code);
    else if (CONFIG_WITH_VALUE.has(value)) i++;
  }
  if (reads || operands.length < 2) return;
  const [key, setting] = operands;
  settingCode(key === null || setting === null ? null : `${key}=${setting}`, code, WRITES);
}

/** The subcommands of `git config` (git 2.46 on): `set`, `get`… — only before the first operand. */
function isAction(word: string): boolean {
  return READS.has(word) || WRITES_ANY.has(word) || word === 'set';
}

function writesAny(code: GitCode): void {
  code.why ??= 'git config edits settings, which can name programs git runs later';
  code.might = true;
}
