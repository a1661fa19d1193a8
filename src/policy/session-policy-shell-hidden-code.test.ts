import { describe, it } from 'vitest';
import type { PermissionRuleSpec } from './permission-rule.js';
import {
  casesOf,
  checkRow,
  exec,
  type ModeName,
  type Row,
  runQuestion,
  useFixture,
} from './test-support/policy-table.js';

/**
 * The policy table's rows for code the shell runs where no command is written (issue 24, deny3):
 * arithmetic on a variable (its value may hold `a[$(cmd)]`, run when the subscript is evaluated),
 * `${x@P}` and `${!x}` in assignments, wrappers that run their operands, and `git config` writing a
 * key that names a program git runs later. Each form ran under the deny rule, or was allowed by
 * `Shell(git *)`, before.
 */

useFixture();

const RM_RF: PermissionRuleSpec[] = [{ decision: 'deny', pattern: 'Shell(rm -rf*)' }];
const GIT_ALL: PermissionRuleSpec[] = [{ decision: 'allow', pattern: 'Shell(git *)' }];
const X = "x='a[$(rm -rf /tmp/t)]'";

/** Under `Shell(rm -rf*)` in yolo: arithmetic on a variable the rule cannot see into (asked, even in yolo). */
const ARITHMETIC_FORMS: [name: string, command: string][] = [
  ['$((x))', `${X}; echo $((x))`],
  ['$(( $x + 1 ))', `${X}; echo $(( $x + 1 ))`],
  ['$[x]', `${X}; echo $[x]`],
  ['(( x ))', `${X}; (( x ))`],
  ['let x', `${X}; let x`],
  ['let "y = x + 1"', `${X}; let "y = x + 1"`],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
  ['an index ${a[x]}', `${X}; a=(1 2); echo \${a[x]}`],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
  ['an offset ${s:x}', `${X}; s=abc; echo \${s:x}`],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
  ['a length ${s:0:x}', `${X}; s=abc; echo "\${s:0:x}"`],
  ['[[ x -eq 1 ]]', `${X}; [[ x -eq 1 ]]`],
  ['[[ $x -lt 1 ]]', `${X}; [[ $x -lt 1 ]] && echo y`],
  ['declare -i', `${X}; declare -i n; n=x`],
  ['declare -i with its value', `${X}; declare -i n=x`],
  ['an indexed assignment a[x]=1', `${X}; a[x]=1`],
  ['a compound assignment b=([x]=1)', `${X}; b=([x]=1)`],
  ['an appended compound assignment', `${X}; b+=([$x]=1)`],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
  ['a slice ${b[@]:x}', `${X}; b=(1 2); echo "\${b[@]:x}"`],
  ['printf -v b[x]', `${X}; printf -v 'b[x]' %s 1`],
  ['[[ -v b[x] ]]', `${X}; [[ -v b[x] ]]`],
  ['arithmetic in an assignment before a command', `${X}; y=$((x)) git status`],
  ['arithmetic in a heredoc', `${X}; cat <<EOF\n$((x))\nEOF`],
  ['arithmetic in a for (( ))', `${X}; for ((i=x; i<1; i++)); do :; done`],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
  ['an indirect ${!x}', `${X}; echo \${!x}`],
  ['arithmetic in a case word', `${X}; case \${s:x} in *) ;; esac`],
];

/** Arithmetic on constants only, and expansions that evaluate nothing: untouched by the deny rule. */
const NO_ARITHMETIC_CODE = [
  'echo $((1 + 2))',
  'echo $((16#ff + 0x1F))',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
  'echo ${s:-default} ${s:=x} ${s:+y}',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
  'echo ${a[1]} ${s: -1} ${#s} ${a[@]}',
  '[[ -f x && $y == z ]]',
  '[[ 1 -eq 1 ]]',
  'let 1+2',
  'b=([0]=a [1]=b)',
  '[ x -eq 1 ] || printf %d x',
  '[[ $? -eq 0 ]] && echo ok',
  'echo $(( $# + 1 ))',
];

/** Everyday commands of the programs read here: untouched by the deny rule. */
const TOOLS_RUNNING_OTHER_THINGS = [
  'docker ps -a',
  'docker build -t app .',
  'docker run --rm -it node:20 npm test',
  'kubectl get pods -n web',
  'kubectl -n web exec pod -- ls /app',
  'ssh host uptime',
  'watch -n 5 git status',
  'parallel gzip ::: a b',
  'timeout 60 npm test',
  'nice -n 10 make -j4',
];

/** Under `Shell(rm -rf*)` in yolo: `${x@P}` before a command runs any command (denied). */
const PROMPT_FORMS: [name: string, command: string][] = [
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
  ['${x@P} in an assignment before a command', "x='$(rm -rf v)'; y=${x@P} git status"],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
  ['${x@P} in a heredoc', "x='$(rm -rf v)'; cat <<EOF\n${x@P}\nEOF"],
];

/** Under `Shell(rm -rf*)` in yolo: wrappers that run their operands as a command (denied). */
const WRAPPED_FORMS: [name: string, command: string][] = [
  ['numactl', 'numactl --cpunodebind=0 rm -rf v'],
  ['numactl -C', 'numactl -C 0 rm -rf v'],
  ['pkexec', 'pkexec rm -rf v'],
  ['pkexec --user', 'pkexec --user root rm -rf v'],
  ['sudo -s', 'sudo -s rm -rf v'],
  ['sudo -i', 'sudo -i rm -rf v'],
  ['doas -u', 'doas -u root rm -rf v'],
  ['/usr/bin/time -v', '/usr/bin/time -v rm -rf v'],
  ['time -p', 'time -p rm -rf v'],
  ['watch STRING', "watch 'rm -rf v'"],
  ['watch -n 1 WORDS', 'watch -n 1 rm -rf v'],
  ['watch -x', 'watch -x rm -rf v'],
  ['gdb --args', 'gdb -q --args rm -rf v'],
  ['xvfb-run', 'xvfb-run -a rm -rf v'],
  ['firejail', 'firejail --quiet rm -rf v'],
  ['parallel', 'parallel rm -rf ::: v'],
  ['parallel STRING', "parallel 'rm -rf {}' ::: v"],
  ['entr', 'echo x | entr rm -rf v'],
  ['entr -s', "echo x | entr -s 'rm -rf v'"],
  ['caffeinate', 'caffeinate -i rm -rf v'],
  ['proxychains4', 'proxychains4 -q rm -rf v'],
  ['proxychains', 'proxychains rm -rf v'],
  ['torsocks', 'torsocks rm -rf v'],
  ['faketime', "faketime '2020-01-01' rm -rf v"],
  ['catchsegv', 'catchsegv rm -rf v'],
  ['setarch', 'setarch x86_64 -R rm -rf v'],
  ['linux32', 'linux32 rm -rf v'],
  ['sg -c', "sg wheel -c 'rm -rf v'"],
  ['sg GROUP CMD', "sg wheel 'rm -rf v'"],
  ['toybox', 'toybox rm -rf v'],
  ['ssh HOST CMD', 'ssh host rm -rf v'],
  ['ssh HOST STRING', "ssh -p 22 host 'rm -rf v'"],
  ['docker exec', 'docker exec -it box rm -rf v'],
  ['docker run', 'docker run --rm -v /:/h alpine rm -rf /h'],
  ['docker container exec', 'docker container exec box rm -rf v'],
  ['podman exec', 'podman exec box sh -c "rm -rf v"'],
  ['kubectl exec', 'kubectl exec -it pod -- rm -rf v'],
  ['kubectl -n NS exec', 'kubectl -n ns exec pod -- rm -rf v'],
  ['docker -H HOST exec', 'docker -H tcp://h:2375 exec box rm -rf v'],
  ['timeout --foreground', 'timeout --foreground 5 rm -rf v'],
  ['nice -n', 'nice -n 5 rm -rf v'],
  ['nohup', 'nohup rm -rf v'],
  ['stdbuf', 'stdbuf -oL rm -rf v'],
  ['ionice', 'ionice -c3 rm -rf v'],
  ['setsid -w', 'setsid -w rm -rf v'],
  ['flock -x', 'flock -x /tmp/l rm -rf v'],
  ['chroot', 'chroot / rm -rf v'],
  ['su user -c', "su root -c 'rm -rf v'"],
  ['runuser -l', "runuser -l me -c 'rm -rf v'"],
  ['ltrace', 'ltrace -f rm -rf v'],
  ['sudo -c CLASS', 'sudo -c staff rm -rf v'],
  ['sudo --role ROLE', 'sudo --role r rm -rf v'],
  ['xargs --max-args N', 'echo v | xargs --max-args 1 rm -rf'],
  ['doas -a STYLE', 'doas -a x rm -rf v'],
  ['newgrp reading a here-string', 'newgrp wheel <<< "rm -rf v"'],
  ['ssh -o ProxyCommand', "ssh -o ProxyCommand='rm -rf v' host"],
  ['docker run --entrypoint', 'docker run --entrypoint rm alpine -rf v'],
];

/** Wrappers whose command line is not read here: what they run cannot be ruled out (asked). */
const WRAPPED_UNREAD: [name: string, command: string][] = [
  ['parallel with the flags among its inputs', 'parallel rm ::: -rf v'],
  ["ssh with no command (its input is the remote shell's)", 'ssh -T host'],
  ['gdb -ex', "gdb -batch -ex 'shell rm -rf v'"],
  // `docker compose exec web rm -rf v` was here (not read, asked); it is read now and denied
  // (session-policy-shell-remote-code.test.ts). An option compose's reader does not know is still asked.
  ['a docker compose option not read here', 'docker compose exec --weird web rm -rf v'],
];

/** Under `Shell(git *)`: git config writing a key that runs a program later (asked). */
const GIT_CONFIG_WRITES = [
  "git config core.fsmonitor 'touch p'",
  "git config --global core.pager 'touch p'",
  "git config --file .git/config core.sshCommand 'touch p'",
  "git config -f .git/config core.editor 'touch p'",
  'git config core.hooksPath /tmp/hooks',
  "git config --local core.askPass 'touch p'",
  "git config alias.st '!touch p'",
  "git config --add filter.x.clean 'touch p'",
  "git config filter.x.smudge 'touch p'",
  "git config diff.x.textconv 'touch p'",
  "git config diff.external 'touch p'",
  "git config merge.x.driver 'touch p'",
  "git config sequence.editor 'touch p'",
  "git config credential.helper '!touch p'",
  "git config gpg.program 'touch p'",
  "git config remote.origin.uploadpack 'touch p'",
  "git config set core.fsmonitor 'touch p'",
  "git config set --global core.pager 'touch p'",
  'git config include.path /tmp/evil.cfg',
  "git config --replace-all core.pager 'touch p'",
  "git config web.browser 'touch p'",
  'git config --global --edit',
  "git -C sub config core.pager 'touch p'",
  "git remote add -f x 'ext::sh -c touch% p'",
  "git submodule add 'ext::sh -c touch% p' m",
  'git clone --template=/tmp/t https://example.com/r.git r',
  'git init --template /tmp/t',
  'git config --global init.templateDir /tmp/t',
];

/** Everyday commands under allow rules: still allowed. */
const ALLOWED_EVERYDAY: [command: string, pattern: string][] = [
  ['git status', 'Shell(git *)'],
  ['git log --oneline', 'Shell(git *)'],
  ['git config user.name', 'Shell(git *)'],
  ['git config user.email a@b.c', 'Shell(git *)'],
  ['git config --get core.editor', 'Shell(git *)'],
  ['git config --list', 'Shell(git *)'],
  ['git config get core.pager', 'Shell(git *)'],
  ['git remote add origin https://example.com/r.git', 'Shell(git *)'],
  ['git submodule update --init', 'Shell(git *)'],
  ['git init', 'Shell(git *)'],
  ['git config --global init.defaultBranch main', 'Shell(git *)'],
  ['git config --unset core.pager', 'Shell(git *)'],
  ['timeout 5 npm test', 'Shell(npm test*)'],
  ['nice make', 'Shell(make*)'],
  ['nice -n 5 make -j2', 'Shell(make*)'],
  ['time npm test', 'Shell(npm test*)'],
];

/** Wrappers under an allow rule for what they run: never simple when they change who or where. */
const NOT_ALLOWED_WRAPPED: [command: string, pattern: string][] = [
  ['sudo make', 'Shell(make*)'],
  ['ssh host make', 'Shell(make*)'],
  ['docker exec box make', 'Shell(make*)'],
  ['timeout 5 rm -rf v', 'Shell(timeout *)'],
  ['timeout 5 bash -c make', 'Shell(make*)'],
  ['let x', 'Shell(let *)'],
];

const ROWS: Row[] = [
  ...ARITHMETIC_FORMS.map(([name, command]) =>
    shellRow(`might run rm -rf through ${name}`, command, RM_RF, 'ask', 'rule', 'might apply'),
  ),
  ...NO_ARITHMETIC_CODE.map((command) =>
    shellRow(`no code in arithmetic: ${command}`, command, RM_RF, 'allow', 'mode'),
  ),
  ...TOOLS_RUNNING_OTHER_THINGS.map((command) =>
    shellRow(`runs nothing the rule names: ${command}`, command, RM_RF, 'allow', 'mode'),
  ),
  ...PROMPT_FORMS.map(([name, command]) =>
    shellRow(`deny rm -rf through ${name}`, command, RM_RF, 'deny', 'deny-rule'),
  ),
  ...WRAPPED_FORMS.map(([name, command]) =>
    shellRow(`deny rm -rf through ${name}`, command, RM_RF, 'deny', 'deny-rule'),
  ),
  ...WRAPPED_UNREAD.map(([name, command]) =>
    shellRow(`might run rm -rf through ${name}`, command, RM_RF, 'ask', 'rule', 'might apply'),
  ),
  ...GIT_CONFIG_WRITES.map((command) =>
    shellRow(
      `not simple under git *: ${command}`,
      command,
      GIT_ALL,
      'ask',
      'tool-default',
      undefined,
      'default',
    ),
  ),
  ...ALLOWED_EVERYDAY.map(([command, pattern]) =>
    shellRow(
      `allowed by ${pattern}: ${command}`,
      command,
      [{ decision: 'allow', pattern }],
      'allow',
      'rule',
      undefined,
      'default',
    ),
  ),
  ...NOT_ALLOWED_WRAPPED.map(([command, pattern]) =>
    shellRow(
      `not covered by ${pattern}: ${command}`,
      command,
      [{ decision: 'allow', pattern }],
      'ask',
      'tool-default',
      undefined,
      'default',
    ),
  ),
];

function shellRow(
  name: string,
  command: string,
  rules: PermissionRuleSpec[],
  expected: Row['expected'],
  step: string,
  says?: string,
  modeName: ModeName = 'yolo',
): Row {
  return {
    name,
    tool: 'Shell',
    effect: () => exec(command),
    question: runQuestion(command),
    modes: [modeName],
    rules,
    expected,
    step,
    says,
  };
}

describe('SessionPolicy.decide: code the shell runs where no command is written', () => {
  it.each(casesOf(ROWS))('%s', (_name, row, modeName) => checkRow(row, modeName));
});
