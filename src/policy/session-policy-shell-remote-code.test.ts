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
 * The policy table's rows for commands other programs run for a copy or a connection (issue 24,
 * holes4): rsync's `-e`/`--rsh`/`RSYNC_RSH` (run here, split by rsync) and `--rsync-path` (a line
 * for the remote shell), scp's and sftp's `-S` program, `-o ProxyCommand`, sftp's `-D` server,
 * ssh's `RemoteCommand`, the variables git and others run as a command (`GIT_SSH_COMMAND=…`, also
 * through `env` and `export`), and what `docker compose exec|run`, `podman-compose` and `kubectl
 * exec POD CMD` run inside. Each form below ran past the deny rule (or was only asked) before.
 */

useFixture();

const RM_RF: PermissionRuleSpec[] = [{ decision: 'deny', pattern: 'Shell(rm -rf*)' }];

/** Under `Shell(rm -rf*)` in yolo: the command they run is rm -rf (denied). */
const DENIED: [name: string, command: string][] = [
  ['rsync -e', "rsync -e 'rm -rf v' a h:b"],
  ['rsync --rsh=', "rsync --rsh='rm -rf v' a h:b"],
  ['rsync --rsh WORD', "rsync --rsh 'rm -rf v' a h:b"],
  ['rsync -avze (clustered)', "rsync -avze 'rm -rf v' a h:b"],
  ['rsync -e with the host rsync appends', "rsync -e 'rm -rf' a v:b"],
  ['rsync -e with quotes rsync removes', `rsync -e 'rm "-rf" v' a h:b`],
  ['rsync -e through sudo', "rsync -e 'sudo rm -rf v' a h:b"],
  ['rsync -e not literal', 'rsync -e "$x" a h:b'],
  ['rsync --rsync-path', "rsync --rsync-path='rm -rf v' a h:b"],
  ['RSYNC_RSH=', "RSYNC_RSH='rm -rf v' rsync a h:b"],
  ['RSYNC_CONNECT_PROG=', "RSYNC_CONNECT_PROG='rm -rf v' rsync rsync://h/m ."],
  ['GIT_SSH_COMMAND=', "GIT_SSH_COMMAND='rm -rf v' git fetch"],
  ['GIT_SSH_COMMAND with the host git appends', "GIT_SSH_COMMAND='rm -rf' git ls-remote ssh://v/x"],
  ['GIT_SSH_COMMAND not literal', 'GIT_SSH_COMMAND="$c" git fetch'],
  ['GIT_EDITOR=', "GIT_EDITOR='rm -rf v' git commit"],
  ['env GIT_SSH_COMMAND=', "env GIT_SSH_COMMAND='rm -rf v' git fetch"],
  ['sudo GIT_SSH_COMMAND=', "sudo GIT_SSH_COMMAND='rm -rf v' git fetch"],
  ['export GIT_SSH_COMMAND=', "export GIT_SSH_COMMAND='rm -rf v'; git fetch"],
  ['GIT_SSH_COMMAND= alone, then git', "GIT_SSH_COMMAND='rm -rf v'; export GIT_SSH_COMMAND; git fetch"],
  ['declare -x GIT_SSH_COMMAND=', "declare -x GIT_SSH_COMMAND='rm -rf v'; git fetch"],
  ['git -c core.sshCommand=', "git -c core.sshCommand='rm -rf v' fetch"],
  ['scp -o ProxyCommand=', "scp -o ProxyCommand='rm -rf v' a h:b"],
  ['scp -oProxyCommand', "scp -F /dev/null '-oProxyCommand rm -rf v' a h:b"],
  ['sftp -o ProxyCommand=', "sftp -o ProxyCommand='rm -rf v' h"],
  ['sftp -D', "sftp -D 'rm -rf v'"],
  ['sftp -s (the remote server)', "sftp -s 'rm -rf v' h"],
  ['ssh -o RemoteCommand=', "ssh -o RemoteCommand='rm -rf v' h"],
  ['ssh -o with the key quoted', `ssh -o '"ProxyCommand"=rm -rf v' h`],
  ['docker compose exec', 'docker compose exec web rm -rf v'],
  ['docker compose -f FILE exec -T', 'docker compose -f c.yml exec -T -u root web rm -rf v'],
  ['docker compose run --rm', 'docker compose run --rm -e A=1 web rm -rf v'],
  ['docker compose run --entrypoint', 'docker compose run --entrypoint rm web -rf v'],
  ['docker-compose exec', 'docker-compose exec web sh -c "rm -rf v"'],
  ['podman compose exec', 'podman compose exec web rm -rf v'],
  ['podman-compose run', 'podman-compose run web rm -rf v'],
  ['podman exec', 'podman exec -it box rm -rf v'],
];

/** Under `Shell(rm -rf*)` in yolo: what they run cannot be ruled out (asked, even in yolo). */
const MIGHT: [name: string, command: string][] = [
  ['scp -S PROG (its arguments are ssh options)', 'scp -S rm a h:b'],
  ['sftp -S PROG', 'sftp -S ./rm h'],
  ['scp -F FILE (settings not read here)', 'scp -F cfg a h:b'],
  ['sftp reading its commands (`!cmd` runs a local shell)', 'sftp h'],
  ['GIT_SSH=PROG (git adds its arguments)', 'GIT_SSH=rm git fetch'],
  ['GIT_SSH_COMMAND=ssh … (ssh with arguments git adds)', "GIT_SSH_COMMAND='ssh -i k' git fetch"],
  ['docker compose exec with an option not read here', 'docker compose exec --weird web rm -rf v'],
  ['kubectl exec with an option not read here', 'kubectl exec --weird pod rm -rf v'],
  // With no `--`, kubectl reads `-rf` as options of its own and refuses them: nothing runs, but
  // what is not read here is asked.
  ['kubectl exec POD CMD with its flags (no --)', 'kubectl exec pod rm v -rf'],
  ['oc exec POD CMD with its long flags (no --)', 'oc exec pod rm v --recursive --force'],
];

/** Everyday commands of these programs: untouched by the deny rule. */
const EVERYDAY = [
  'rsync -avz src/ host:dst/',
  'rsync -a --delete build/ /srv/www/',
  'scp a.txt host:/tmp/',
  'scp -P 2222 -o StrictHostKeyChecking=no a.txt host:/tmp/',
  'GIT_SSH_COMMAND= git status',
  'PAGER=cat git log',
  'docker compose up -d',
  'docker compose ps',
  'docker compose exec web ls /app',
  'docker compose run --rm web npm test',
  'kubectl exec pod -- ls /app',
  'kubectl exec pod ls',
  'kubectl get pods',
];

/** Under an allow rule for what they run: never simple (they run it elsewhere, or name a program). */
const NOT_ALLOWED: [command: string, pattern: string][] = [
  ["rsync -e 'ssh -p 2222' a h:b", 'Shell(rsync *)'],
  ['docker compose exec web make', 'Shell(make*)'],
  ['kubectl exec pod make', 'Shell(make*)'],
  ['GIT_SSH_COMMAND=ssh git fetch', 'Shell(git *)'],
  ['scp -S ./x a h:b', 'Shell(scp *)'],
];

/** Everyday commands still allowed by an allow rule for the program. */
const ALLOWED: [command: string, pattern: string][] = [
  ['rsync -avz src/ host:dst/', 'Shell(rsync *)'],
  ['scp a.txt host:/tmp/', 'Shell(scp *)'],
];

/** Under `Shell(rm *)` in yolo: the old `kubectl exec POD CMD` form runs CMD in the pod (denied). */
const RM_ANY: PermissionRuleSpec[] = [{ decision: 'deny', pattern: 'Shell(rm *)' }];
const POD_DENIED: [name: string, command: string][] = [
  ['kubectl exec POD CMD (no --)', 'kubectl exec pod rm v'],
  ['kubectl -n NS exec -c C POD CMD (no --)', 'kubectl -n ns exec -c app -it pod rm v'],
  ['oc exec POD CMD (no --)', 'oc exec --container=app pod rm v'],
];

const ROWS: Row[] = [
  ...POD_DENIED.map(([name, command]) =>
    shellRow(`deny rm through ${name}`, command, RM_ANY, 'deny', 'deny-rule'),
  ),
  ...DENIED.map(([name, command]) =>
    shellRow(`deny rm -rf through ${name}`, command, RM_RF, 'deny', 'deny-rule'),
  ),
  ...MIGHT.map(([name, command]) =>
    shellRow(`might run rm -rf through ${name}`, command, RM_RF, 'ask', 'rule', 'might apply'),
  ),
  ...EVERYDAY.map((command) =>
    shellRow(`runs nothing the rule names: ${command}`, command, RM_RF, 'allow', 'mode'),
  ),
  ...NOT_ALLOWED.map(([command, pattern]) =>
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
  ...ALLOWED.map(([command, pattern]) =>
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

describe('SessionPolicy.decide: what copies, connections and containers run', () => {
  it.each(casesOf(ROWS))('%s', (_name, row, modeName) => checkRow(row, modeName));
});
