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
 * (and `container exec|run`): CMD runs in the container, whose files may be the host's (`-v /:/h`).
 * Other forms that run a command (compose) are not read here.
 */
export function containerRun(program: string, args: readonly ShellWord[]): ToolRun | null {
  const why = `${program} runs a command in a container`;
  let i = skipOptions(args, 0, DOCKER_GLOBAL);
  if (i === -1) return unreadRun(why);
  if (args[i]?.value === 'container') i++;
  const subcommand = args[i]?.value;
  if (subcommand !== 'exec' && subcommand !== 'run') {
    // `docker compose exec …`, `docker compose run …`: another grammar, not read here.
    const runs = args
      .slice(i + 1)
      .some((word) => word.value === 'exec' || word.value === 'run' || word.value === null);
    return subcommand === null || (subcommand !== undefined && runs) ? unreadRun(why) : null;
  }
  const known = subcommand === 'exec' ? DOCKER_EXEC : DOCKER_RUN;
  const start = i + 1;
  i = skipOptions(args, start, known);
  if (i === -1 || i >= args.length) return i === -1 ? unreadRun(why) : null;
  const command = args.slice(i + 1);
  // `--entrypoint PROG`: the command is PROG with the words after the image as its arguments.
  for (let k = start; k < i; k++) {
    const value = args[k]!.value ?? '';
    if (value === '--entrypoint') return wordsRun(why, [args[k + 1]!, ...command]);
    if (value.startsWith('--entrypoint=')) {
      const entrypoint = value.slice('--entrypoint='.length);
      return wordsRun(why, [{ value: entrypoint, text: entrypoint, splits: false }, ...command]);
    }
  }
  // No command: the image's own runs, which nothing here names.
  return wordsRun(why, command.length > 0 ? command : null);
}

const POD_RUNS = new Set(['exec', 'run', 'debug']);

/** `kubectl exec|run|debug … -- CMD …` (and OpenShift's `oc`): CMD runs in a pod. */
export function podRun(program: string, args: readonly ShellWord[]): ToolRun | null {
  // The subcommand may follow global options with values (`kubectl -n ns exec …`): any word before `--`.
  const dashes = args.findIndex((word) => word.value === '--');
  const head = dashes === -1 ? args : args.slice(0, dashes);
  const subcommand = head.find((word) => POD_RUNS.has(word.value ?? ''))?.value;
  if (subcommand === undefined || subcommand === null) return null;
  const why = `${program} ${subcommand} runs a command in a pod`;
  if (dashes !== -1) return wordsRun(why, args.slice(dashes + 1));
  // `kubectl exec POD CMD` (the old form) is not read here; `run` without `--` runs the image's own.
  return subcommand === 'exec' ? unreadRun(why) : null;
}
