/**
 * Wrappers: each runs the command in its operands, after options of its own. The value lists the
 * options that take the next word as their argument (`sudo -u root rm` runs `rm`).
 */
export const WRAPPERS: Readonly<Record<string, readonly string[]>> = {
  command: [],
  builtin: [],
  exec: ['-a'],
  nohup: [],
  setsid: [],
  nice: ['-n', '--adjustment'],
  ionice: ['-c', '-n', '-p', '-P', '-u', '--class', '--classdata'],
  stdbuf: ['-i', '-o', '-e', '--input', '--output', '--error'],
  time: ['-f', '-o', '--format', '--output'],
  timeout: ['-s', '-k', '--signal', '--kill-after'],
  // -S STRING splits its string into the command (read by shell-wrappers.ts).
  env: ['-u', '-C', '-P', '-S', '--unset', '--chdir', '--split-string'],
  // -c CLASS too (a login class): read as a command, `sudo -c staff rm -rf x` ran `staff`.
  sudo: [
    '-u',
    '-g',
    '-c',
    '-C',
    '-D',
    '-h',
    '-p',
    '-r',
    '-t',
    '-T',
    '-U',
    '-R',
    '--user',
    '--group',
    '--chdir',
    '--login-class',
    '--close-from',
    '--host',
    '--prompt',
    '--role',
    '--type',
    '--command-timeout',
    '--other-user',
    '--chroot',
  ],
  doas: ['-u', '-C', '-a'],
  chroot: ['--userspec', '--groups'],
  xargs: [
    '-a',
    '-d',
    '-E',
    '-I',
    '-L',
    '-n',
    '-P',
    '-s',
    '--arg-file',
    '--delimiter',
    '--eof',
    '--replace',
    '--max-args',
    '--max-procs',
    '--max-lines',
    '--max-chars',
    '--process-slot-var',
  ],
  flock: ['-w', '-E', '--timeout', '--conflict-exit-code'],
  taskset: [],
  unbuffer: [],
  coproc: [],
  // Run the command in their operands too: a multi-call binary, tracers, namespaces and privileges.
  busybox: [],
  fakeroot: ['-l', '--lib', '--faked', '-i', '-s', '-b', '--fd-base'],
  strace: [
    '-o',
    '-e',
    '-p',
    '-s',
    '-u',
    '-a',
    '-b',
    '-E',
    '-I',
    '-P',
    '-S',
    '-X',
    '-O',
    '-U',
    '--output',
    '--user',
  ],
  ltrace: ['-o', '-e', '-p', '-s', '-u', '-a', '-l', '-n', '-x', '-L', '-A', '-D', '-F', '--output'],
  valgrind: [],
  unshare: [
    '-S',
    '-G',
    '-R',
    '-w',
    '--setuid',
    '--setgid',
    '--root',
    '--wd',
    '--map-user',
    '--map-group',
    '--propagation',
  ],
  nsenter: ['-t', '--target', '-S', '--setuid', '-G', '--setgid', '-r', '-w', '--wd', '--root'],
  chrt: ['-T', '-P', '-D', '--sched-runtime', '--sched-period', '--sched-deadline'],
  setpriv: [
    '--reuid',
    '--regid',
    '--ruid',
    '--euid',
    '--rgid',
    '--egid',
    '--groups',
    '--inh-caps',
    '--ambient-caps',
    '--bounding-set',
    '--securebits',
    '--pdeathsig',
    '--selinux-label',
    '--apparmor-profile',
  ],
  'systemd-run': [
    '-p',
    '--property',
    '-u',
    '--unit',
    '-E',
    '--setenv',
    '--uid',
    '--gid',
    '--nice',
    '--working-directory',
    '--description',
    '--slice',
    '-M',
    '--machine',
    '-H',
    '--host',
    '--service-type',
  ],
  'dbus-run-session': ['--config-file', '--dbus-daemon'],
  numactl: [
    '-C',
    '--physcpubind',
    '-N',
    '--cpunodebind',
    '-m',
    '--membind',
    '-p',
    '--preferred',
    '-i',
    '--interleave',
    '-P',
    '--preferred-many',
    '-w',
    '--weighted-interleave',
  ],
  pkexec: ['--user', '-u'],
  'xvfb-run': [
    '-n',
    '--server-num',
    '-f',
    '--auth-file',
    '-e',
    '--error-file',
    '-s',
    '--server-args',
    '-p',
    '--xauth-protocol',
    '-w',
    '--wait',
  ],
  firejail: [],
  caffeinate: ['-t', '-w'],
  proxychains: ['-f'],
  proxychains4: ['-f'],
  torsocks: ['-u', '--user', '-p', '--pass', '-a', '--address', '-P', '--port'],
  catchsegv: [],
  toybox: [],
  faketime: ['-p', '--date-prog'],
  // `prlimit [--RESOURCE[=LIMITS]] CMD`: its resource options take their value attached only.
  prlimit: ['-p', '--pid', '-o', '--output'],
};

/** A wrapper's options that take a value: short letters and long names (from WRAPPERS, made once). */
interface ValueOptions {
  readonly letters: string;
  readonly long: readonly string[];
}

const VALUE_OPTIONS = new Map<string, ValueOptions>();

function valueOptionsOf(program: string): ValueOptions {
  let known = VALUE_OPTIONS.get(program);
  if (known === undefined) {
    const listed = WRAPPERS[program] ?? [];
    known = {
      letters: listed
        .filter((flag) => /^-[^-]$/.test(flag))
        .map((flag) => flag[1])
        .join(''),
      long: listed.filter((flag) => flag.startsWith('--')),
    };
    VALUE_OPTIONS.set(program, known);
  }
  return known;
}

/** One option a wrapper reads, as getopt_long does: its name, its value (if it takes one), the words it used. */
export interface WrapperOption {
  /** `-X` for a short option, `--name` (completed when abbreviated) for a long one. */
  readonly flag: string;
  /** Its value, attached or the next word; null when not literal or missing; undefined: it takes none. */
  readonly value: string | null | undefined;
}

/**
 * Reads a wrapper's options from `start` as getopt_long does, so that the command after them is found
 * however they are written: short options cluster and the last of a cluster may take its value
 * attached or as the next word (`env -iC . CMD`, `timeout -vk 1 5 CMD`, `xargs -rn1`); a long option
 * may be any unique prefix (`env --spl=STRING`, `--chd DIR`) and takes its value after `=` or next.
 * A prefix of several value-taking options is read as the first: ambiguous, the program only fails.
 * Calls `seen` for each option with a value (flags with none are not reported); returns the index of
 * the first word that is no option (past a `--`), or the length when `seen` returns true (stop).
 */
export function readWrapperOptions(
  program: string,
  args: readonly { readonly value: string | null }[],
  start: number,
  seen: (option: WrapperOption, at: number) => boolean,
): number {
  const known = valueOptionsOf(program);
  let i = start;
  while (i < args.length) {
    const value = args[i]!.value;
    if (value === null) return i; // an unknown word: taken as the command (the name is unknown)
    if (value === '--') return i + 1;
    // `env -` is `env -i`; to every other wrapper a lone `-` is an operand.
    if (value === '-' && program === 'env') {
      i++;
      continue;
    }
    if (!value.startsWith('-') || value === '-') return i;
    if (value.startsWith('--')) {
      const eq = value.indexOf('=');
      const name = eq === -1 ? value : value.slice(0, eq);
      const flag = known.long.includes(name) ? name : known.long.find((long) => long.startsWith(name));
      if (flag === undefined || name.length < 3) {
        i++;
        continue;
      }
      const attached = eq === -1 ? undefined : value.slice(eq + 1);
      const option = { flag, value: attached ?? args[i + 1]?.value ?? null };
      if (seen(option, i)) return args.length;
      i += attached === undefined ? 2 : 1;
      continue;
    }
    let next = i + 1;
    for (let at = 1; at < value.length; at++) {
      const letter = value[at]!;
      if (!known.letters.includes(letter)) continue;
      const rest = value.slice(at + 1);
      if (rest === '') next = i + 2;
      if (seen({ flag: `-${letter}`, value: rest === '' ? (args[i + 1]?.value ?? null) : rest }, i))
        return args.length;
      break;
    }
    i = next;
  }
  return i;
}
