import { configCommandCode, type GitCode, settingCode } from './git-config-code.js';
import { optionValues, type ProgramCode } from './program-options.js';
import { type ShellWord, UNKNOWN_WORD } from './shell-words.js';

/** git's options before the subcommand that take the next word (`-C dir`, `-c key=value`). */
const GIT_GLOBAL_WITH_VALUE = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--super-prefix',
  '--config-env',
  '--exec-path',
]);

/**
 * Per subcommand, its options whose value is a program git runs (by a shell): long names and short
 * letters. `grep -O[CMD]` takes its value attached only.
 */
const GIT_PROGRAM_OPTIONS: Readonly<Record<string, { long: readonly string[]; short: string }>> = {
  grep: { long: ['open-files-in-pager'], short: 'O' },
  archive: { long: ['exec'], short: '' },
  'ls-remote': { long: ['upload-pack'], short: '' },
  clone: { long: ['upload-pack'], short: 'u' },
  fetch: { long: ['upload-pack'], short: '' },
  pull: { long: ['upload-pack'], short: '' },
  push: { long: ['receive-pack', 'exec'], short: '' },
  'send-pack': { long: ['receive-pack', 'exec'], short: '' },
  'fetch-pack': { long: ['upload-pack', 'exec'], short: '' },
  rebase: { long: ['exec'], short: 'x' },
  difftool: { long: ['extcmd'], short: 'x' },
  'filter-branch': {
    long: [
      'env-filter',
      'tree-filter',
      'index-filter',
      'parent-filter',
      'msg-filter',
      'commit-filter',
      'tag-name-filter',
    ],
    short: '',
  },
};

/** Subcommands whose own options or operands may run a program (GIT_PROGRAM_OPTIONS and these). */
const SUBCOMMANDS_THAT_RUN = new Set([
  ...Object.keys(GIT_PROGRAM_OPTIONS),
  'bisect',
  'submodule',
  'http-push',
  'config',
  'remote',
  'init',
]);

const GIT: ShellWord = { value: 'git', text: 'git', splits: false };
const PUSH: ShellWord = { value: 'push', text: 'push', splits: false };

const WITH_C = 'git -c sets configuration, which can name programs git runs';

export function gitCode(args: readonly ShellWord[]): ProgramCode | null {
  // Most git commands (`git status`, `git log -n 5`): no global option, a subcommand that runs nothing.
  const first = args[0]?.value;
  if (first && !first.startsWith('-') && !SUBCOMMANDS_THAT_RUN.has(first)) return null;
  const code: GitCode = { why: null, nested: [], extra: [], might: false };
  let i = 0;
  for (; i < args.length; i++) {
    const value = args[i]!.value;
    if (value === null) return null; // an unknown subcommand: the word is not literal (not simple) already
    if (!value.startsWith('-')) break;
    const eq = value.indexOf('=');
    const flag = eq === -1 ? value : value.slice(0, eq);
    const attached = eq === -1 ? undefined : value.slice(eq + 1);
    const operand = attached ?? (GIT_GLOBAL_WITH_VALUE.has(flag) ? (args[++i]?.value ?? null) : undefined);
    if (flag === '-c') {
      // Never simple, whatever it sets (`-c` can also turn a setting off that guards something).
      code.why ??= WITH_C;
      settingCode(operand ?? null, code, WITH_C);
    } else if (flag === '--config-env' || (flag === '--exec-path' && operand !== undefined)) {
      code.why ??= `git ${flag} names programs or settings from elsewhere`;
      code.might = true;
    }
  }
  const subcommand = args[i]?.value;
  const rest = args.slice(i + 1);
  if (subcommand === 'clone') {
    for (const setting of optionValues(rest, ['config'], 'c')) {
      code.why ??= WITH_C;
      settingCode(setting, code, WITH_C);
    }
  }
  const options = subcommand ? GIT_PROGRAM_OPTIONS[subcommand] : undefined;
  if (options) {
    const values = optionValues(rest, options.long, options.short, subcommand === 'grep');
    if (values.length > 0) {
      code.why ??= `git ${subcommand} runs a program named in its options`;
      for (const value of values) {
        if (value === null) code.extra.push([UNKNOWN_WORD]);
        else if (value !== '') code.nested.push(value);
      }
    }
  }
  if (subcommand === 'send-pack' || subcommand === 'http-push') {
    // The plumbing under `git push`: a rule about pushing (`git push*`) applies to it as to a push.
    code.why ??= `git ${subcommand} pushes, as git push does`;
    code.extra.push([GIT, PUSH, ...rest]);
  }
  if (subcommand === 'bisect' && rest[0]?.value === 'run' && rest.length > 1) {
    code.why ??= 'git bisect run runs a command';
    code.extra.push(rest.slice(1));
  }
  if (subcommand === 'submodule' && rest.some((word) => word.value === 'foreach')) {
    code.why ??= 'git submodule foreach runs a command line';
    const command = rest.slice(rest.findIndex((word) => word.value === 'foreach') + 1);
    const values = command.filter((word) => !word.value?.startsWith('-') || word.value === null);
    if (values.some((word) => word.value === null)) code.extra.push([UNKNOWN_WORD]);
    else if (values.length > 0) code.nested.push(values.map((word) => word.value).join(' '));
  }
  if (subcommand === 'config') configCommandCode(rest, code);
  if ((subcommand === 'clone' || subcommand === 'init') && optionValues(rest, ['template'], '').length > 0) {
    // The template's hooks are copied in, and run by git (clone's post-checkout at once).
    code.why ??= `git ${subcommand} --template copies in hooks, which git runs`;
    code.might = true;
  }
  if (rest.some((word) => word.value?.startsWith('ext::'))) {
    // `git remote add x 'ext::sh -c …'`, `git clone ext::…`: that transport runs a command.
    code.why ??= 'the ext:: transport runs a command';
    code.might = true;
  }
  if (code.why === null) return null;
  return { why: code.why, nested: code.nested, extra: code.extra, might: code.might };
}
