import { existsSync } from 'node:fs';
import { splitWords } from '../policy/command-secret-paths.js';
import { realOrGiven } from '../util/real-or-given.js';
import { pathOfWord } from './files-named-by-words.js';
import { launcherReadsOfCommand } from './launcher-reads.js';
import { scriptWords } from './script-words.js';

/**
 * What a hook's command named at session start, checked again before each run. The sandbox holds
 * an existing script read-only (hook-script-files.ts), but not a name: a script the command names
 * that did not exist yet (a global hook, a project without it) could be created by a command, and a
 * script that is a symlink (or lies through one) could be replaced by a file of the command's. Either
 * would run outside the sandbox at the next event. So a hook runs only while every path its command
 * names, or its launcher reads (launcher-reads.ts), still leads where it led at start; otherwise it
 * is skipped, with the reason.
 */
export type HookCommandRefusal = (command: string) => string | null;

/** A word of the command, its path, and the real path it led to at start (`null`: nothing). */
type NamedPathState = {
  readonly path: string;
  readonly word: string;
  readonly real: string | null;
  /** What it is to the hook: `a path its command names`, `a file its launcher reads`. */
  readonly role?: string;
};

export async function watchHookScripts(
  commands: readonly string[],
  workDir: string,
  home: string,
): Promise<HookCommandRefusal> {
  const watched = new Map<string, NamedPathState[]>();
  for (const command of new Set(commands)) {
    const states: NamedPathState[] = [];
    const words = splitWords(command);
    const scripts = new Set(scriptWords(words).map(({ word }) => word));
    for (const word of words) {
      const path = pathOfWord(word, workDir, home);
      if (existsSync(path)) states.push({ path, word, real: realOrGiven(path) });
      // A missing word is watched only where it names what runs: `hook.log` after `>>` may be made
      // by the hook itself.
      else if (scripts.has(word)) states.push({ path, word, real: null });
    }
    // What its launchers read (`npm run lint`: package.json, .npmrc; `make`: GNUmakefile before
    // Makefile): held where they exist, but one a command makes would be read in turn.
    const named = new Set(states.map((state) => state.path));
    for (const path of (await launcherReadsOfCommand(command, workDir, home)).files) {
      if (named.has(path)) continue;
      named.add(path);
      states.push({
        path,
        word: path,
        real: existsSync(path) ? realOrGiven(path) : null,
        role: 'a file its launcher reads',
      });
    }
    watched.set(command, states);
  }
  return (command) => {
    for (const state of watched.get(command) ?? []) {
      const now = existsSync(state.path) ? realOrGiven(state.path) : null;
      // Gone is not refused: nothing of a command's runs there (a hook may remove its own files).
      if (now === null || now === state.real) continue;
      const change =
        state.real === null
          ? 'did not exist when the session started'
          : `led to ${state.real} when the session started and now leads to ${now}`;
      return `A hook is skipped: ${state.word}, ${state.role ?? 'a path its command names'}, ${change} (a command may have put it there, and hooks run outside the sandbox). Start a new session to run it.`;
    }
    return null;
  };
}
