import { composeRun, containerRun, podRun } from './container-commands.js';
import { rsyncRun } from './rsync-command.js';
import { type ShellWord, UNKNOWN_WORD } from './shell-words.js';
import { sshRun } from './ssh-command.js';
import { sshCopyRun } from './ssh-copy-commands.js';
import {
  inputRun,
  joined,
  lineRun,
  options,
  skipOptions,
  type ToolRun,
  unreadRun,
  wordsRun,
} from './tool-run.js';

export type { ToolRun } from './tool-run.js';

const WATCH = options(
  ['--interval', '--equexit'],
  [
    '--exec',
    '--beep',
    '--color',
    '--no-color',
    '--differences',
    '--errexit',
    '--chgexit',
    '--no-title',
    '--no-wrap',
    '--precise',
    '--no-rerun',
  ],
  'nq',
  'bcCdegtwxpr',
);

/** `watch [options] CMD …`: the words joined are run by `sh -c`, or run as they are with `-x`. */
function watchRun(args: readonly ShellWord[]): ToolRun | null {
  const why = 'watch runs a command line again and again';
  const i = skipOptions(args, 0, WATCH);
  if (i === -1) return unreadRun(why);
  const command = args.slice(i);
  if (command.length === 0) return null;
  const exec = args
    .slice(0, i)
    .some((word) => word.value === '--exec' || /^-[A-Za-z]*x/.test(word.value ?? ''));
  return exec ? wordsRun(why, command) : lineRun(why, joined(command));
}

const ENTR = options([], [], '', 'acdnprsxz');

/** `entr [options] CMD …` runs CMD at each change; `entr -s STRING` hands STRING to the shell. */
function entrRun(args: readonly ShellWord[]): ToolRun | null {
  const why = 'entr runs a command when files change';
  const i = skipOptions(args, 0, ENTR);
  if (i === -1) return unreadRun(why);
  const command = args.slice(i);
  if (command.length === 0) return null;
  const shell = args.slice(0, i).some((word) => /^-[A-Za-z]*s/.test(word.value ?? ''));
  return shell ? lineRun(why, joined(command)) : wordsRun(why, command);
}

const PARALLEL = options(
  [
    '--arg-file',
    '--delimiter',
    '--eof',
    '--replace',
    '--jobs',
    '--max-lines',
    '--max-args',
    '--sshlogin',
    '--results',
    '--res',
    '--joblog',
    '--tmpdir',
    '--workdir',
    '--wd',
    '--timeout',
    '--delay',
    '--retries',
    '--colsep',
    '--tagstring',
    '--basefile',
    '--bf',
    '--return',
    '--transferfile',
    '--tf',
    '--env',
    '--memfree',
    '--load',
    '--sshloginfile',
    '--slf',
    '--halt',
    '--termseq',
    '--block',
    '--block-size',
    '--nice',
    '--header',
    '--max-chars',
    '--max-procs',
  ],
  [
    '--keep-order',
    '--quote',
    '--ungroup',
    '--group',
    '--line-buffer',
    '--lb',
    '--verbose',
    '--xargs',
    '--dry-run',
    '--progress',
    '--bar',
    '--eta',
    '--no-notice',
    '--will-cite',
    '--null',
    '--tag',
    '--pipe',
    '--pipepart',
    '--shuf',
    '--no-run-if-empty',
    '--silent',
    '--plus',
    '--fg',
    '--citation',
    '--halt-on-error',
    '--ungroup',
  ],
  'adEIjLnNSCs',
  '0kquvXmtr',
);
const PARALLEL_INPUTS = new Set([':::', '::::', ':::+', '::::+']);

/** `parallel [options] CMD … ::: ARGS`: CMD's words joined run by a shell per input; no CMD: lines from its input. */
function parallelRun(args: readonly ShellWord[]): ToolRun {
  const why = 'parallel runs a command line for each input';
  const i = skipOptions(args, 0, PARALLEL);
  if (i === -1) return unreadRun(why);
  let end = i;
  while (end < args.length && !PARALLEL_INPUTS.has(args[end]!.value ?? '')) end++;
  const command = args.slice(i, end);
  if (command.length === 0) return inputRun(why);
  // Each input is added to the line as arguments (`parallel rm ::: -rf v` runs `rm -rf v`): as
  // words, the command then a word nobody knows, as xargs's; as a line, when it is one string.
  return {
    why,
    words: [...command, UNKNOWN_WORD],
    lines: [joined(command)],
    unread: false,
    readsInput: false,
  };
}

/** `sg [-] GROUP [-c] CMD`: CMD is run by `sh -c`; with none, a shell reads its input. */
function sgRun(args: readonly ShellWord[]): ToolRun {
  const why = 'sg runs a command line as another group';
  let i = args[0]?.value === '-' ? 1 : 0;
  i++; // the group
  if (args[i]?.value === '-c') i++;
  const command = args.slice(i);
  if (command.length === 0) return inputRun(why);
  return lineRun(why, joined(command));
}

const SETARCH = options(
  [],
  [
    '--uname-2.6',
    '--addr-no-randomize',
    '--fdpic-funcptrs',
    '--mmap-page-zero',
    '--addr-compat-layout',
    '--read-implies-exec',
    '--32bit',
    '--short-inode',
    '--whole-seconds',
    '--sticky-timeouts',
    '--3gb',
    '--4gb',
    '--verbose',
  ],
  '',
  'vRFZLXBIST3',
);

/** `setarch ARCH [options] [CMD …]`, `linux32 [options] [CMD …]`: CMD, or a shell reading its input. */
function setarchRun(program: string, args: readonly ShellWord[]): ToolRun {
  const why = `${program} runs a command with another personality`;
  let i = 0;
  if (program === 'setarch') {
    i = skipOptions(args, 0, SETARCH);
    if (i === -1) return unreadRun(why);
    i++; // the architecture
  }
  i = skipOptions(args, i, SETARCH);
  if (i === -1) return unreadRun(why);
  const command = args.slice(i);
  if (command.length === 0) return inputRun(why);
  return wordsRun(why, command);
}

/** `gdb … --args CMD …` runs CMD; its `-ex`, `-x` and the commands it reads run anything (`shell …`). */
function gdbRun(args: readonly ShellWord[]): ToolRun | null {
  if (args.length === 1 && (args[0]!.value === '--version' || args[0]!.value === '--help')) return null;
  const why = 'gdb runs a program and commands of its own';
  const at = args.findIndex((word) => word.value === '--args');
  return { why, words: at === -1 ? null : args.slice(at + 1), lines: [], unread: true, readsInput: false };
}

/**
 * The programs that run a command in a form of their own (tool-run.ts), by name: watch, entr,
 * parallel, sg, newgrp, setarch, gdb read here; ssh, scp/sftp, rsync, docker/podman (compose too)
 * and kubectl in files of their own.
 */
type Reader = (program: string, args: readonly ShellWord[]) => ToolRun | null;
const READERS: ReadonlyMap<string, Reader> = new Map<string, Reader>([
  ['ssh', (_program, args) => sshRun(args)],
  ['scp', (_program, args) => sshCopyRun('scp', args)],
  ['sftp', (_program, args) => sshCopyRun('sftp', args)],
  ['rsync', (_program, args) => rsyncRun(args)],
  ['docker', containerRun],
  ['podman', containerRun],
  ['nerdctl', containerRun],
  ['docker-compose', (_program, args) => composeRun('docker', args)],
  ['podman-compose', (_program, args) => composeRun('podman', args)],
  ['kubectl', podRun],
  ['oc', podRun],
  ['watch', (_program, args) => watchRun(args)],
  ['entr', (_program, args) => entrRun(args)],
  ['parallel', (_program, args) => parallelRun(args)],
  ['sg', (_program, args) => sgRun(args)],
  ['newgrp', () => inputRun('newgrp starts a shell that reads its input')],
  ['setarch', setarchRun],
  ['linux32', setarchRun],
  ['linux64', setarchRun],
  ['gdb', (_program, args) => gdbRun(args)],
]);

/** What a program of the list above runs; null for any other program, or a form that runs nothing. */
export function toolRun(program: string, args: readonly ShellWord[]): ToolRun | null {
  const reader = READERS.get(program);
  return reader === undefined ? null : reader(program, args);
}
