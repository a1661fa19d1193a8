import { describe, it } from 'vitest';
import type { PermissionRuleSpec } from './permission-rule.js';
import { casesOf, checkRow, exec, type Row, runQuestion, useFixture } from './test-support/policy-table.js';

/**
 * The policy table's rows for what a command runs beyond the wrappers read before (issue 24, red4):
 * wrapper options read as getopt does, wrappers inside `find -exec`, programs that run a command line
 * or code (tclsh, sqlite3, vi/ex/ed, zip, npx/npm exec, make), variables whose value is code, start-up
 * files, scripts the same command writes and runs, git's dashed programs and its push plumbing.
 * Under `Shell(rm -rf*)` (or `Shell(git push*)`) in yolo; each form got past the rule before.
 */

useFixture();

const RM_RF: PermissionRuleSpec[] = [{ decision: 'deny', pattern: 'Shell(rm -rf*)' }];
const GIT_PUSH: PermissionRuleSpec[] = [{ decision: 'deny', pattern: 'Shell(git push*)' }];

/** What they run is read and matches the rule: denied. */
const DENIED: [name: string, command: string][] = [
  ['env -iC DIR', 'env -iC . rm -rf v'],
  ['env -iu NAME', 'env -iu X rm -rf v'],
  ['env -iS STRING (attached)', 'env -iS"rm -rf v"'],
  ['env -vS STRING (next word)', "env -vS 'rm -rf v'"],
  ['env --spl= (a prefix of --split-string)', 'env --spl="rm -rf v"'],
  ['env --chd DIR (a prefix of --chdir)', 'env --chd . rm -rf v'],
  ['env - (as -i)', 'env - rm -rf v'],
  ['timeout -vk 1', 'timeout -vk 1 5 rm -rf v'],
  ['timeout -vk1 (value attached)', 'timeout -vk1 5 rm -rf v'],
  ['xargs -rn 1', 'echo v | xargs -rn 1 rm -rf'],
  ['xargs -rd', 'echo v | xargs -rd "\\n" rm -rf'],
  ['flock -xw 1', 'flock -xw 1 /tmp/l rm -rf v'],
  ['strace -fqqo FILE', 'strace -fqqo /dev/null rm -rf v'],
  ['exec -la NAME', 'exec -la x rm -rf v'],
  ['sudo -Eu USER', 'sudo -Eu root rm -rf v'],
  ['prlimit', 'prlimit rm -rf v'],
  ['prlimit --nofile=N', 'prlimit --nofile=1024 rm -rf v'],
  ['prlimit -p PID', 'prlimit -p 1 rm -rf v'],
  ['find -exec env', 'find . -name v -exec env rm -rf {} +'],
  ['find -execdir env -i', 'find . -name v -execdir env -i rm -rf {} +'],
  ['find -exec timeout … bash -c', "find . -exec timeout 5 bash -c 'rm -rf v' \\;"],
  ['find -exec sh -c with $0', 'find . -exec sh -c \'rm -rf "$0"\' {} \\;'],
  ['sqlite3 .shell', "sqlite3 :memory: '.shell rm -rf v'"],
  ['sqlite3 .system', "sqlite3 :memory: '.system rm -rf v'"],
  ['sqlite3 -cmd .shell', "sqlite3 -cmd '.shell rm -rf v' :memory: .quit"],
  ['vim -c !', "vim -c '!rm -rf v' -c q file"],
  ['vim +!', "vim +'!rm -rf v' +q file"],
  ['nvim --cmd !', "nvim --cmd ':!rm -rf v' file"],
  ['zip -TT', "zip -q z.zip f -T -TT 'rm -rf v;'"],
  ['zip --unzip-command=', "zip -T --unzip-command='rm -rf v' z.zip f"],
  ['npx -c', "npx -c 'rm -rf v'"],
  ['npm exec -c', "npm exec -c 'rm -rf v'"],
  ['npm exec --call', "npm exec --call 'rm -rf v'"],
  ['npm x -c', "npm x -c 'rm -rf v'"],
  ['GIT_SSH_COMMAND= before a command', "GIT_SSH_COMMAND='rm -rf v;' git ls-remote ssh://h/r"],
  ['GIT_SSH_COMMAND= through env', "env GIT_SSH_COMMAND='rm -rf v;' git fetch"],
  ['LESSOPEN=|CMD', "LESSOPEN='|rm -rf v %s' less /etc/hostname"],
  ['PROMPT_COMMAND= with bash -i', "PROMPT_COMMAND='rm -rf v' bash -i <<< ''"],
  ['GIT_PAGER=', "GIT_PAGER='rm -rf v' git log"],
  ['bash /dev/stdin reading a here-string', "bash /dev/stdin <<< 'rm -rf v'"],
];

/** Code the policy cannot read, which might run what the rule names: asked (refused where nobody answers). */
const ASKED: [name: string, command: string][] = [
  ['tclsh reading its input', "tclsh <<< 'exec rm -rf v'"],
  ['tclsh /dev/stdin', "tclsh /dev/stdin <<< 'exec rm -rf v'"],
  ['ex reading commands', "ex -s -c '!rm -rf v' -c q"],
  ['ed reading commands', "echo '!rm -rf v' | ed -s"],
  ['vim -es (ex mode)', 'vim -es < cmds'],
  ['vim -c with an ex command that is no !', 'vim -c \'call system("rm -rf v")\' file'],
  ['sqlite3 reading its input', "sqlite3 db <<< '.shell rm -rf v'"],
  ['make -f -', "make -f - <<< $'a:\\n\\trm -rf v'"],
  ['make --eval with ANSI-C quotes', "make --eval=$'a:\\n\\trm -rf v' a"],
  ['find -exec perl -e', 'find . -exec perl -e \'system("rm","-rf",@ARGV)\' {} +'],
  ['python3 /dev/stdin', "python3 /dev/stdin <<< 'import os'"],
  ['env BASH_ENV=<(…)', 'env BASH_ENV=<(echo rm -rf v) bash -c true'],
  ['BASH_ENV= before bash', 'BASH_ENV=/tmp/e bash -c true'],
  ['export BASH_ENV=', 'export BASH_ENV=/tmp/e; bash -c true'],
  ['bash --rcfile <(…)', "bash --rcfile <(echo rm -rf v) -i <<< ''"],
  ['LD_PRELOAD=', 'LD_PRELOAD=/tmp/x.so ls'],
  ['a script written, then run by sh', "echo 'rm -rf v' > /tmp/s0; sh /tmp/s0"],
  ['a script written, then sourced', "echo 'rm -rf v' > /tmp/s1; . /tmp/s1"],
  ['a script written, then run by its path', "printf 'rm -rf v' > s2; chmod +x s2; ./s2"],
  ['a script written by tee, then run', "echo 'rm -rf v' | tee s4 >/dev/null; bash s4"],
];

/** git's push by another name, under `Shell(git push*)`: denied. */
const GIT_PUSHES: [name: string, command: string][] = [
  ['git-push by its exec-path program', '/usr/lib/git-core/git-push origin HEAD:refs/heads/b'],
  ['git send-pack', 'git send-pack ../remote.git HEAD:refs/heads/b'],
  ['git-send-pack by its program', '/usr/lib/git-core/git-send-pack ../r.git HEAD'],
  ['git http-push', 'git http-push https://h/r.git HEAD'],
];

/** Everyday commands of the same programs and wrappers: untouched by the deny rules. */
const UNTOUCHED = [
  'env -i PATH=/usr/bin make',
  'env --chdir=src ls',
  'timeout -k 5 60 npm test',
  'xargs -n1 echo',
  'prlimit --nofile=1024 npm test',
  "find . -name '*.ts' -exec grep -l x {} +",
  'find . -exec env ls {} +',
  "sqlite3 app.db 'select count(*) from users'",
  'vim --version',
  'zip -r out.zip src',
  'npx eslint .',
  'npm exec -- eslint .',
  'npm run build',
  'make -f Makefile all',
  'GIT_PAGER=cat git log -n 3',
  'EDITOR=true git commit --amend --no-edit',
  'bash build.sh',
  'echo x > out.txt; cat out.txt',
  'cp a.sh b.sh; ls',
  'git push --dry-run --help',
  'git-lfs ls-files',
];

const ROWS: Row[] = [
  ...DENIED.map(([name, command]) => row(`deny rm -rf through ${name}`, command, RM_RF, 'deny', 'deny-rule')),
  ...ASKED.map(([name, command]) =>
    row(`might run rm -rf through ${name}`, command, RM_RF, 'ask', 'rule', 'might apply'),
  ),
  ...GIT_PUSHES.map(([name, command]) =>
    row(`deny git push through ${name}`, command, GIT_PUSH, 'deny', 'deny-rule'),
  ),
  ...UNTOUCHED.map((command) =>
    row(`runs nothing the rule names: ${command}`, command, RM_RF, 'allow', 'mode'),
  ),
];

function row(
  name: string,
  command: string,
  rules: PermissionRuleSpec[],
  expected: Row['expected'],
  step: string,
  says?: string,
): Row {
  return {
    name,
    tool: 'Shell',
    effect: () => exec(command),
    question: runQuestion(command),
    modes: ['yolo'],
    rules,
    expected,
    step,
    says,
  };
}

describe('SessionPolicy.decide: what a command runs beyond wrappers (red4)', () => {
  it.each(casesOf(ROWS))('%s', (_name, row, modeName) => checkRow(row, modeName));
});
