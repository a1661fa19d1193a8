import type { ShellWord } from './shell-words.js';
import { joined } from './tool-run.js';

/**
 * Package managers' runners: `npx CMD`, `npm [options] exec|x [options] [--] CMD`, `pnpm dlx CMD`,
 * `pnpx CMD`, `pnpm exec CMD`, `yarn dlx CMD`, `yarn exec CMD`. CMD is what runs (a bin of the work
 * tree's node_modules/.bin, a package's, or any program on PATH for pnpm's and yarn's exec), so it
 * is what deny and ask rules judge. Given as words, it adds no wrapper of its own: an allow rule for
 * `npx eslint *` still covers `npx eslint .` (what the user approved is what is written). `-c`
 * (npm's `--call`, pnpm's `--shell-mode`) hands a command line to a shell; npm with no command at
 * all starts `sh`, which reads its commands from its input: neither is simple.
 */
export interface PackageRun {
  readonly why: string;
  /** The command it runs, as words; two readings where npm's options leave it open. */
  readonly commands: readonly (readonly ShellWord[])[];
  /** Command lines it hands to a shell; null for one that is not literal. */
  readonly lines: readonly (string | null)[];
  /** No command given: a shell reads its commands from its input. */
  readonly readsInput: boolean;
}

const NONE: PackageRun = { why: '', commands: [], lines: [], readsInput: false };

/**
 * npm's config keys whose value is not boolean: `--key value` takes the next word (npm's
 * definitions, read with nopt); every other option, known or not, is a switch to npm
 * (`npm --foo exec` runs exec). Shorthands with a value: -C (prefix), -w (workspace), -c (call),
 * -L (location), -m (message).
 */
const NPM_VALUE_KEYS = new Set(
  (
    '_auth access allow-directory allow-file allow-git allow-remote allow-scripts also audit-level auth-type ' +
    'before ca cache cache-max cache-min cafile call cert cidr cpu depth diff diff-dst-prefix diff-src-prefix ' +
    'diff-unified editor expect-result-count expires fetch-retries fetch-retry-factor fetch-retry-maxtimeout ' +
    'fetch-retry-mintimeout fetch-timeout git globalconfig heading https-proxy include init-author-email ' +
    'init-author-name init-author-url init-license init-module init-type init-version init.author.email ' +
    'init.author.name init.author.url init.license init.module init.version install-strategy key libc ' +
    'local-address location lockfile-version loglevel logs-dir logs-max name maxsockets message ' +
    'min-release-age min-release-age-exclude node-gyp node-options noproxy omit only orgs os otp package ' +
    'pack-destination packages prefix preid provenance-file proxy registry replace-registry-host save-prefix ' +
    'sbom-format sbom-type scope scopes packages-and-scopes-permission orgs-permission password ' +
    'token-description script-shell searchexclude searchlimit searchopts searchstaleness shell tag ' +
    'tag-version-prefix umask user-agent userconfig viewer which workspace reg enjoy-by C w c L m p n ' +
    'npm node-arg'
  ).split(' '),
);

/**
 * Switches that may still take the next word: a type of boolean or a value (`--color always`,
 * `--workspaces`), and any switch followed by `true`, `false` or `null` (nopt reads it as the value).
 */
const NPM_MAYBE_VALUE = new Set([
  'browser',
  'color',
  'expect-results',
  'optional',
  'production',
  'workspaces',
  'yes',
]);

/** The key of an option word (`--prefix=x` → prefix, `-w` → w) and whether its value is attached. */
function optionKey(word: string): { key: string; attached: boolean } {
  const body = word.replace(/^-+/, '');
  const eq = body.indexOf('=');
  return eq === -1 ? { key: body, attached: false } : { key: body.slice(0, eq), attached: true };
}

/**
 * Where npm's words after `from` may leave its options: the index of each word that may be the
 * first operand (two when a switch may take the next word). `--` ends the options.
 */
function npmOperandStarts(args: readonly ShellWord[], from: number): number[] {
  for (let i = from; i < args.length; i++) {
    const value = args[i]!.value;
    if (value === null) return [i];
    if (value === '--') return [i + 1];
    if (!value.startsWith('-') || value === '-') return [i];
    const { key, attached } = optionKey(value);
    if (attached) continue;
    if (NPM_VALUE_KEYS.has(key)) {
      i++;
      continue;
    }
    const next = args[i + 1]?.value;
    const mayTake =
      next !== undefined &&
      (next === null ||
        (!next.startsWith('-') && (NPM_MAYBE_VALUE.has(key) || /^(?:true|false|null)$/.test(next))));
    if (mayTake) {
      // Both readings: the next word is the operand, or the option's value.
      const after = npmOperandStarts(args, i + 2);
      return [i + 1, ...after];
    }
  }
  return [args.length];
}

/** `exec`, its alias `x`, and the abbreviation npm takes for it (`exe`; `ex` is ambiguous). */
function isNpmExec(word: string | null): boolean {
  return word === 'exec' || word === 'x' || word === 'exe';
}

/**
 * `npm exec`'s own words from `from` (its options, then the command): what it runs. npx takes the
 * next word as the value of an option it does not know as a switch (nopt, for `npm exec`, does
 * not): where a word may be either, both readings are judged.
 */
function npmExecRun(program: string, args: readonly ShellWord[], from: number): PackageRun {
  const lines: (string | null)[] = [];
  const starts: number[] = [];
  let packages = 0;
  let i = from;
  for (; i < args.length; i++) {
    const value = args[i]!.value;
    if (value === null || value === '--' || !value.startsWith('-') || value === '-') break;
    const { key, attached } = optionKey(value);
    const given = attached ? value.slice(value.indexOf('=') + 1) : (args[i + 1]?.value ?? null);
    if (key === 'c' || key === 'call') lines.push(given);
    if (key === 'p' || key === 'package') packages++;
    if (attached) continue;
    if (NPM_VALUE_KEYS.has(key)) i++;
    // Read as taking the next word, the command starts after it (the options there read loosely).
    else if (args[i + 1]?.value?.startsWith('-') === false) starts.push(i + 2);
  }
  if (args[i]?.value === '--') i++;
  if (lines.length > 0)
    return {
      why: `${program} exec -c runs its string as a command line`,
      commands: [],
      lines,
      readsInput: false,
    };
  const commands = [...new Set([i, ...starts])]
    .map((at) => args.slice(at))
    .filter((words) => words.length > 0);
  if (commands.length > 0)
    return { why: `${program} exec runs a package's command`, commands, lines: [], readsInput: false };
  // No command and no package: npm starts its script shell (sh), which reads its input.
  if (packages > 0) return NONE;
  const why = `${program} exec with no command starts a shell that reads its input`;
  return { why, commands: [], lines: [], readsInput: true };
}

/** `npx …`, `npm … exec|x|exe …`: what runs; null for any other npm command. */
function npmRun(program: string, args: readonly ShellWord[]): PackageRun | null {
  if (program === 'npx') return npmExecRun('npx', args, 0);
  const starts = npmOperandStarts(args, 0);
  const runs: PackageRun[] = [];
  for (const at of starts) {
    const sub = args[at];
    if (sub === undefined) continue;
    if (sub.value === null) {
      // `npm "$sub" …`: the subcommand is decided by an expansion; exec would run what follows.
      const rest = args.slice(at + 1);
      runs.push(
        rest.length > 0
          ? {
              why: 'npm runs a subcommand an expansion decides',
              commands: [rest],
              lines: [],
              readsInput: false,
            }
          : NONE,
      );
    } else if (isNpmExec(sub.value)) runs.push(npmExecRun('npm', args, at + 1));
  }
  return merged(runs);
}

/** Several readings of one command: every command, line and input any of them runs. */
function merged(runs: readonly PackageRun[]): PackageRun | null {
  if (runs.length === 0) return null;
  if (runs.length === 1) return runs[0]!;
  const why = runs.find((run) => run.lines.length > 0 || run.readsInput)?.why ?? runs[0]!.why;
  return {
    why,
    commands: runs.flatMap((run) => run.commands),
    lines: runs.flatMap((run) => run.lines),
    readsInput: runs.some((run) => run.readsInput),
  };
}

/** pnpm's and yarn's global options that take a value (the ones before the subcommand). */
const PNPM_GLOBAL_VALUES = new Set([
  '-C',
  '--dir',
  '--filter',
  '-F',
  '--filter-prod',
  '--reporter',
  '--loglevel',
  '--workspace-concurrency',
  '--color',
]);
const YARN_GLOBAL_VALUES = new Set([
  '--cwd',
  '--mutex',
  '--network-timeout',
  '--cache-folder',
  '--modules-folder',
  '--global-folder',
  '--use-yarnrc',
  '--registry',
]);
/** dlx's and exec's own options that take a value (pnpm `--package`, `--resume-from`; yarn `-p`). */
const RUNNER_VALUES = new Set(['--package', '-p', '--resume-from', '--filter', '-F', '--reporter']);

/**
 * `pnpm [options] dlx|exec [options] CMD …`, `pnpx CMD`, `yarn [options] dlx|exec [options] CMD …`:
 * both stop reading their options at the command. `-c`/`--shell-mode`: the words are one command
 * line for a shell. An option not known here is read as a switch: the command is then at most one
 * word later, and both readings are judged.
 */
function dlxRun(program: string, args: readonly ShellWord[]): PackageRun | null {
  let i = 0;
  if (program !== 'pnpx') {
    const globals = program === 'pnpm' ? PNPM_GLOBAL_VALUES : YARN_GLOBAL_VALUES;
    for (; i < args.length; i++) {
      const value = args[i]!.value;
      if (value === null || !value.startsWith('-')) break;
      if (globals.has(value)) i++;
    }
    const sub = args[i]?.value;
    if (sub !== 'dlx' && sub !== 'exec') return null;
    i++;
  }
  const name = program === 'pnpx' ? 'pnpx' : `${program} ${args[i - 1]!.value}`;
  let shellMode = false;
  const starts: number[] = [];
  for (; i < args.length; i++) {
    const value = args[i]!.value;
    if (value === null || !value.startsWith('-')) break;
    if (value === '--') {
      i++;
      break;
    }
    if (value === '-c' || value === '--shell-mode') shellMode = true;
    else if (RUNNER_VALUES.has(value)) i++;
    else if (
      !value.includes('=') &&
      !/^-[cqrs]$/.test(value) &&
      args[i + 1]?.value?.startsWith('-') === false
    )
      starts.push(i + 2); // an option not known here might take the next word: the command may follow it
  }
  const commands = [...new Set([i, ...starts])]
    .map((at) => args.slice(at))
    .filter((words) => words.length > 0);
  if (commands.length === 0) return null;
  if (shellMode) {
    const why = `${name} --shell-mode runs its words as a command line`;
    return { why, commands: [], lines: commands.map((words) => joined(words)), readsInput: false };
  }
  return { why: `${name} runs a package's command`, commands, lines: [], readsInput: false };
}

type Reader = (program: string, args: readonly ShellWord[]) => PackageRun | null;
const READERS: ReadonlyMap<string, Reader> = new Map<string, Reader>([
  ['npx', npmRun],
  ['npm', npmRun],
  ['pnpm', dlxRun],
  ['pnpx', dlxRun],
  ['yarn', dlxRun],
]);

/** What a package manager's runner runs; null for any other program or subcommand. */
export function packageRun(program: string, args: readonly ShellWord[]): PackageRun | null {
  const reader = READERS.get(program);
  return reader === undefined ? null : reader(program, args);
}
