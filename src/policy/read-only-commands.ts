import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { PathClass } from './path-class.js';
import { realPathOf } from './real-path.js';
import type { ParsedCommand } from './shell-command.js';

/**
 * The small set of commands that may run unsandboxed, where the sandbox is wanted but cannot run,
 * without a person saying yes: they only read, and only what lies in the workspace. Left out on
 * purpose: anything that can write (`sort -o`, `uniq in out`, `tee`), run other programs (`find
 * -exec`, `xargs`, `rg --pre`, `git` with the workspace's hooks and `core.fsmonitor`), or read by
 * a path it does not show (`grep -f`, `--file=`), or read every file under a folder (`grep -r`,
 * `diff -r`, `diff` of two folders): a secret file under it would be read unasked.
 */
const READ_ONLY_PROGRAMS = new Set([
  'ls',
  'pwd',
  'echo',
  'cat',
  'head',
  'tail',
  'wc',
  'grep',
  'diff',
  'stat',
  'true',
  'false',
  'basename',
  'dirname',
]);

/** Characters that make a command line more than literal words: expansions, quoting, redirections. */
const NOT_LITERAL = /[$`'"\\<>~*?[\]{}();&|!#\n]/;
const PLAIN_OPTION = /^-[A-Za-z0-9]+$|^--[a-z][a-z-]*$/;

/**
 * Options that make a program read the files under a folder (`grep -r`, `-R`, `-d recurse`,
 * `--recursive`; `diff -r`), or a path it does not show (`grep -f FILE`), for the programs that
 * have them. A cluster (`-rn`) holding one of the letters counts.
 */
const READS_MORE: Readonly<Record<string, { letters: RegExp; long: ReadonlySet<string> }>> = {
  grep: {
    letters: /^-[A-Za-z0-9]*[rRdDf]/,
    long: new Set(['--recursive', '--dereference-recursive', '--directories', '--devices', '--file']),
  },
  diff: { letters: /^-[A-Za-z0-9]*r/, long: new Set(['--recursive']) },
};

/**
 * Whether a command is in the read-only set: one or more literal simple commands (`&&`-free), each
 * a read-only program whose arguments are plain options or paths that really lie in the workspace.
 */
export async function isReadOnlyCommand(
  command: string,
  parsed: ParsedCommand,
  cwd: string,
  classify: (realPath: string) => Promise<PathClass>,
  isSecret: (realPath: string) => boolean,
): Promise<boolean> {
  if (parsed.incomplete || NOT_LITERAL.test(command) || parsed.parts.length !== 1) return false;
  const [program, ...args] = command.trim().split(/\s+/);
  if (program === undefined || !READ_ONLY_PROGRAMS.has(program)) return false;
  if (program === 'echo') return true;
  const readsMore = READS_MORE[program];
  for (const arg of args) {
    if (arg.startsWith('-')) {
      if (!PLAIN_OPTION.test(arg) || arg === '-f' || arg === '--file') return false;
      if (readsMore && (readsMore.letters.test(arg) || readsMore.long.has(arg))) return false;
      continue;
    }
    const real = await realPathOf(resolve(cwd, arg));
    if ((await classify(real)) === 'outside' || isSecret(real)) return false;
    // `diff dir1 dir2` compares the files the two folders both hold.
    if (program === 'diff' && (await isFolder(real))) return false;
  }
  return true;
}

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
