import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { ParsedCommand } from './shell-command.js';

/**
 * The files a command to run OUTSIDE the sandbox runs, as they are now, for its question: a line such
 * as `Files it runs, as they are now: build.sh (37 bytes, #1a2b3c4d)`. The approval remembered for
 * "this exact command" is the question's text, so a later run of the same text is covered only while
 * those files are the same: a sandboxed command that rewrote `build.sh` (unasked, in yolo) made a
 * different question, asked again (red team red5). The mark is a hash of each file's device, inode,
 * size and change times (ctime moves with every write and no call sets it back); a link re-pointed
 * is another file. Null when the command names no such file.
 *
 * Files: every literal word of the command's invocations (wrappers removed) that names a regular file
 * from its folder, and the file a runner reads its scripts from (`package.json` for npm/npx/pnpm/
 * yarn/bun, the Makefile for make). What those files load in turn (a script's `source lib.sh`) is not
 * followed.
 */
export function outsideRunFilesLine(command: ParsedCommand | undefined, cwd: string): string | null {
  if (command === undefined) return null;
  const seen = new Map<string, string>();
  let looked = 0;
  const note = (word: string) => {
    if (seen.has(word) || looked >= MAX_WORDS) return;
    looked++;
    const mark = fileMark(resolve(cwd, word));
    if (mark !== null) seen.set(word, mark);
  };
  for (const part of command.analysed)
    for (const words of part.invocations) {
      const program = words[0]?.value;
      if (program !== null && program !== undefined)
        for (const file of RUNNER_FILES.get(basename(program)) ?? []) note(file);
      for (const word of words) {
        const value = word.value;
        if (value !== null && value.length > 0 && value.length < MAX_WORD_LENGTH && !value.startsWith('-'))
          note(value);
      }
    }
  if (seen.size === 0) return null;
  return `Files it runs, as they are now: ${[...seen].map(([word, mark]) => `${word} (${mark})`).join(', ')}`;
}

/** `N bytes, #hash` of a regular file (through links), or null. */
function fileMark(path: string): string | null {
  try {
    const stat = statSync(path, { bigint: true, throwIfNoEntry: false });
    if (stat === undefined || !stat.isFile()) return null;
    const identity = `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
    return `${stat.size} bytes, #${createHash('sha256').update(identity).digest('hex').slice(0, 8)}`;
  } catch {
    return null;
  }
}

/** Words looked at, at most (a command line with thousands of operands marks the first ones). */
const MAX_WORDS = 64;
const MAX_WORD_LENGTH = 4096;

const PACKAGE_JSON = ['package.json'];
const MAKEFILES = ['GNUmakefile', 'makefile', 'Makefile'];

/** Runners that run what a file in their folder defines. */
const RUNNER_FILES: ReadonlyMap<string, readonly string[]> = new Map([
  ['npm', PACKAGE_JSON],
  ['npx', PACKAGE_JSON],
  ['pnpm', PACKAGE_JSON],
  ['yarn', PACKAGE_JSON],
  ['bun', PACKAGE_JSON],
  ['make', MAKEFILES],
  ['gmake', MAKEFILES],
]);
