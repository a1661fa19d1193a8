import type { ShellWord } from './shell-words.js';
import { options, skipOptions, type ToolRun, unreadRun, wordsRun } from './tool-run.js';

const DOCKER_GLOBAL = options(
  [
    '--host',
    '--context',
    '--config',
    '--log-level',
    '--tlscacert',
    '--tlscert',
    '--tlskey',
    '--url',
    '--connection',
    '--root',
    '--runroot',
  ],
  ['--debug', '--tls', '--tlsverify', '--remote'],
  'Hcl',
  'Dv',
);
const DOCKER_EXEC = options(
  ['--env', '--env-file', '--user', '--workdir', '--detach-keys'],
  ['--detach', '--interactive', '--tty', '--privileged'],
  'euw',
  'dit',
);
const DOCKER_RUN = options(
  [
    '--volume',
    '--env',
    '--env-file',
    '--publish',
    '--workdir',
    '--user',
    '--name',
    '--network',
    '--net',
    '--entrypoint',
    '--mount',
    '--platform',
    '--label',
    '--cpus',
    '--memory',
    '--hostname',
    '--add-host',
    '--device',
    '--cap-add',
    '--cap-drop',
    '--security-opt',
    '--tmpfs',
    '--ulimit',
    '--pull',
    '--restart',
    '--log-driver',
    '--gpus',
    '--shm-size',
    '--ipc',
    '--pid',
    '--dns',
    '--expose',
    '--link',
    '--volumes-from',
    '--userns',
    '--group-add',
    '--cidfile',
    '--stop-signal',
    '--health-cmd',
  ],
  [
    '--rm',
    '--detach',
    '--interactive',
    '--tty',
    '--init',
    '--privileged',
    '--read-only',
    '--publish-all',
    '--quiet',
  ],
  'vepwumhlc',
  'ditPq',
);

/**
 * `docker|podman [global options] exec [options] CONTAINER CMD …`, `… run [options] IMAGE [CMD …]`
 * (and `container exec|run`, `compose exec|run`): CMD runs in the container, whose files may be the
 * host's (`-v /:/h`).
 */
export function containerRun(program: string, args: readonly ShellWord[]): ToolRun | null {
  const why = `${program} runs a command in a container`;
  let i = skipOptions(args, 0, DOCKER_GLOBAL);
  if (i === -1) return unreadRun(why);
  if (args[i]?.value === 'container') i++;
  const subcommand = args[i]?.value;
  if (subcommand === 'compose') return composeRun(program, args.slice(i + 1));
  if (subcommand !== 'exec' && subcommand !== 'run') return subcommand === null ? unreadRun(why) : null;
  const known = subcommand === 'exec' ? DOCKER_EXEC : DOCKER_RUN;
  const start = i + 1;
  i = skipOptions(args, start, known);
  if (i === -1 || i >= args.length) return i === -1 ? unreadRun(why) : null;
  const command = args.slice(i + 1);
  return containerCommandRun(why, args, start, i, command);
}

const COMPOSE_GLOBAL = options(
  [
    '--file',
    '--project-name',
    '--profile',
    '--project-directory',
    '--env-file',
    '--ansi',
    '--parallel',
    '--progress',
  ],
  ['--compatibility', '--dry-run', '--all-resources', '--verbose', '--no-ansi'],
  'fp',
  '',
);
const COMPOSE_EXEC = options(
  ['--env', '--user', '--workdir', '--index'],
  ['--detach', '--privileged', '--no-TTY', '--interactive', '--tty'],
  'euw',
  'dTit',
);
const COMPOSE_RUN = options(
  [
    '--env',
    '--env-from-file',
    '--user',
    '--workdir',
    '--name',
    '--entrypoint',
    '--volume',
    '--publish',
    '--label',
    '--cap-add',
    '--cap-drop',
    '--pull',
  ],
  [
    '--rm',
    '--detach',
    '--no-TTY',
    '--interactive',
    '--tty',
    '--no-deps',
    '--service-ports',
    '--use-aliases',
    '--build',
    '--quiet-pull',
    '--quiet-build',
    '--remove-orphans',
    '--quiet',
  ],
  'euwvpl',
  'dTitPq',
);

/**
 * `docker compose [options] exec|run [options] SERVICE CMD …` (and `docker-compose`, `podman
 * compose`, `podman-compose`): CMD runs in the service's container; `run --entrypoint PROG` runs
 * PROG with CMD as its arguments. Other subcommands run what the compose file says (a file of the
 * project, as a script is): nothing read here.
 */
export function composeRun(program: string, args: readonly ShellWord[]): ToolRun | null {
  const why = `${program} compose runs a command in a service's container`;
  let i = skipOptions(args, 0, COMPOSE_GLOBAL);
  if (i === -1) return unreadRun(why);
  const subcommand = args[i]?.value;
  if (subcommand === null) return unreadRun(why);
  if (subcommand !== 'exec' && subcommand !== 'run') return null;
  const start = i + 1;
  i = skipOptions(args, start, subcommand === 'exec' ? COMPOSE_EXEC : COMPOSE_RUN);
  if (i === -1) return unreadRun(why);
  if (i >= args.length) return null;
  const command = args.slice(i + 1);
  return containerCommandRun(why, args, start, i, command);
}

/**
 * What a container runs given its options (`args` from `start` to `end`) and the words after the
 * image or service: with `--entrypoint PROG`, PROG with those words as its arguments; else those
 * words; with none, the image's own command, which nothing here names.
 */
function containerCommandRun(
  why: string,
  args: readonly ShellWord[],
  start: number,
  end: number,
  command: readonly ShellWord[],
): ToolRun {
  for (let k = start; k < end; k++) {
    const value = args[k]!.value ?? '';
    if (value === '--entrypoint') return wordsRun(why, [args[k + 1]!, ...command]);
    if (value.startsWith('--entrypoint=')) {
      const entrypoint = value.slice('--entrypoint='.length);
      return wordsRun(why, [{ value: entrypoint, text: entrypoint, splits: false }, ...command]);
    }
  }
  return wordsRun(why, command.length > 0 ? command : null);
}

const POD_RUNS = new Set(['exec', 'run', 'debug']);

/** kubectl's options with a value (global ones, and exec's), long and short; the rest take none. */
const KUBECTL_WITH_VALUE = new Set([
  '--as',
  '--as-group',
  '--as-uid',
  '--cache-dir',
  '--certificate-authority',
  '--client-certificate',
  '--client-key',
  '--cluster',
  '--context',
  '--kubeconfig',
  '--log-flush-frequency',
  '--namespace',
  '--password',
  '--profile',
  '--profile-output',
  '--request-timeout',
  '--server',
  '--tls-server-name',
  '--token',
  '--user',
  '--username',
  '--v',
  '--vmodule',
  '--container',
  '--filename',
  '--pod-running-timeout',
  '-n',
  '-s',
  '-v',
  '-c',
  '-f',
]);
const KUBECTL_FLAGS = new Set([
  '--insecure-skip-tls-verify',
  '--match-server-version',
  '--warnings-as-errors',
  '--disable-compression',
  '--stdin',
  '--tty',
  '--quiet',
]);

/**
 * `kubectl exec POD CMD …` with no `--` (the old form): kubectl reads every option-like word as
 * its own (cobra mixes them among the operands), so the command is the words after the pod that are
 * no option; an option it does not know is not read here.
 */
function podCommandWithoutDashes(why: string, args: readonly ShellWord[], at: number): ToolRun {
  const operands: ShellWord[] = [];
  for (let i = 0; i < args.length; i++) {
    if (i === at) continue;
    const word = args[i]!;
    const value = word.value;
    if (value === null) return unreadRun(why);
    if (!value.startsWith('-') || value === '-') {
      operands.push(word);
      continue;
    }
    const name = value.includes('=') ? value.slice(0, value.indexOf('=')) : value;
    if (KUBECTL_WITH_VALUE.has(name)) {
      if (!value.includes('=') && name.startsWith('--')) i++;
      else if (!value.includes('=') && value.length === 2) i++;
    } else if (!KUBECTL_FLAGS.has(name) && !/^-[itq]+$/.test(value) && !/^-[nscfv]./.test(value)) {
      return unreadRun(why);
    }
  }
  // The operands before the subcommand are none (kubectl's own come after it); the first after is the pod.
  return wordsRun(why, operands.length > 1 ? operands.slice(1) : null);
}

/** `kubectl exec|run|debug … -- CMD …` (and OpenShift's `oc`): CMD runs in a pod. */
export function podRun(program: string, args: readonly ShellWord[]): ToolRun | null {
  // The subcommand may follow global options with values (`kubectl -n ns exec …`): any word before `--`.
  const dashes = args.findIndex((word) => word.value === '--');
  const head = dashes === -1 ? args : args.slice(0, dashes);
  const subcommand = head.find((word) => POD_RUNS.has(word.value ?? ''))?.value;
  if (subcommand === undefined || subcommand === null) return null;
  const why = `${program} ${subcommand} runs a command in a pod`;
  if (dashes !== -1) return wordsRun(why, args.slice(dashes + 1));
  // `run` without `--` runs the image's own command.
  if (subcommand !== 'exec') return null;
  return podCommandWithoutDashes(
    why,
    args,
    args.findIndex((word) => word.value === 'exec'),
  );
}
