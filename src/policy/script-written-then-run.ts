import type { CommandPart } from './command-part.js';
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
  let written: Set<string> | null = null;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const target = redirectTarget(part.text);
    if (target !== null) {
      written ??= new Set();
      written.add(basename(target));
      continue;
    }
    for (const words of part.invocations) {
      const writes = writtenFiles(words.map((word) => word.value));
      if (writes.length > 0) {
        written ??= new Set();
        for (const file of writes) written.add(basename(file));
      }
      if (written === null) continue;
      const script = scriptRun(words.map((word) => word.value));
      if (script !== null && written.has(basename(script))) return part;
    }
  }
  return null;
}

/** `> FILE`, `>> FILE`, `&> FILE`, `2> FILE`, `>| FILE` (quotes removed); null for others or /dev files. */
function redirectTarget(text: string): string | null {
  const found = /^(?:[0-9]*|&)>[>|]?\s*(.+)$/.exec(text);
  if (!found) return null;
  const target = found[1]!.replace(/^['"]|['"]$/g, '');
  return target.startsWith('/dev/') || target.startsWith('&') ? null : target;
}

/** Files a command writes by its operands: `tee F`, `cp/mv/install/ln … DEST`, `dd of=F`. */
function writtenFiles(values: readonly (string | null)[]): string[] {
  const name = values[0];
  if (name === null || name === undefined) return [];
  const operands = values
    .slice(1)
    .filter((value): value is string => value !== null && !value.startsWith('-'));
  switch (basename(name)) {
    case 'tee':
      return operands;
    case 'cp':
    case 'mv':
    case 'install':
    case 'ln':
      return operands.slice(-1);
    case 'dd':
      return operands.filter((value) => value.startsWith('of=')).map((value) => value.slice(3));
    default:
      return [];
  }
}

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash', 'posh', 'source', '.']);

/** The script a command runs: `sh FILE`, `. FILE`, `source FILE`, or a program named by a path (`./s`). */
function scriptRun(values: readonly (string | null)[]): string | null {
  const name = values[0];
  if (name === null || name === undefined) return null;
  if (SHELLS.has(basename(name))) {
    const file = values.slice(1).find((value) => value === null || !value.startsWith('-'));
    return file ?? null;
  }
  return name.includes('/') ? name : null;
}
