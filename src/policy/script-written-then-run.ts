import type { CommandPart } from './command-part.js';
import type { ShellWord } from './shell-words.js';
import { basename } from './shell-wrappers.js';

/**
 * A command line that writes a file and runs it as a script (`echo 'rm -rf x' > s; sh s`, `. s`,
 * `./s`): the script's text is not in the command, and it does not exist yet when the decision is
 * made, so no deny rule can rule out what it runs. The part that runs it, or null.
 *
 * Files are compared by their last path segment: a `cd` between the write and the run, or `./s`
 * for `s`, still counts (a false match only asks). Scripts that already exist are judged as before
 * (`bash build.sh` is the shell's business, as `python3 x.py` is): reading every script run would put
 * file reads on the decision's hot path, and the file may change between the decision and the run.
 */
export function scriptWrittenThenRun(parts: readonly CommandPart[]): CommandPart | null {
  // Indexed loops over frozen arrays, no copies: this runs for every Shell decision under deny rules,
  // and most run no script at all (told first, with nothing made).
  if (!runsAnyScript(parts)) return null;
  let written: Set<string> | null = null;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const target = redirectTarget(part.text);
    if (target !== null) {
      written ??= new Set();
      written.add(basename(target));
      continue;
    }
    const invocations = part.invocations;
    for (let k = 0; k < invocations.length; k++) {
      const words = invocations[k]!;
      const name = words[0]?.value;
      if (name === null || name === undefined) continue;
      const program = basename(name);
      if (WRITERS.has(program)) {
        written ??= new Set();
        addWrittenFiles(program, words, written);
      }
      if (written === null) continue;
      const script = scriptRun(program, name, words);
      if (script !== null && written.has(basename(script))) return part;
    }
  }
  return null;
}

function runsAnyScript(parts: readonly CommandPart[]): boolean {
  for (let i = 0; i < parts.length; i++) {
    const invocations = parts[i]!.invocations;
    for (let k = 0; k < invocations.length; k++) {
      const name = invocations[k]![0]?.value;
      if (name !== null && name !== undefined && (name.includes('/') || SHELLS.has(name))) return true;
    }
  }
  return false;
}

/** `> FILE`, `>> FILE`, `&> FILE`, `2> FILE`, `>| FILE` (quotes removed); null for others or /dev files. */
function redirectTarget(text: string): string | null {
  if (!text.includes('>')) return null;
  const found = /^(?:[0-9]*|&)>[>|]?\s*(.+)$/.exec(text);
  if (!found) return null;
  const target = found[1]!.replace(/^['"]|['"]$/g, '');
  return target.startsWith('/dev/') || target.startsWith('&') ? null : target;
}

/** Programs that write files named by their operands: `tee F…`, `cp/mv/install/ln … DEST`, `dd of=F`. */
const WRITERS = new Set(['tee', 'cp', 'mv', 'install', 'ln', 'dd']);

function addWrittenFiles(program: string, words: readonly ShellWord[], written: Set<string>): void {
  let last: string | null = null;
  for (let i = 1; i < words.length; i++) {
    const value = words[i]!.value;
    if (value === null || value.startsWith('-')) continue;
    if (program === 'tee') written.add(basename(value));
    else if (program === 'dd') {
      if (value.startsWith('of=')) written.add(basename(value.slice(3)));
    } else last = value;
  }
  if (last !== null) written.add(basename(last));
}

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash', 'posh', 'source', '.']);

/** The script a command runs: `sh FILE`, `. FILE`, `source FILE`, or a program named by a path (`./s`). */
function scriptRun(program: string, name: string, words: readonly ShellWord[]): string | null {
  if (SHELLS.has(program)) {
    for (let i = 1; i < words.length; i++) {
      const value = words[i]!.value;
      if (value !== null && !value.startsWith('-')) return value;
    }
    return null;
  }
  return name.includes('/') ? name : null;
}
