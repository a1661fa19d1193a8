import { existsSync } from 'node:fs';
import { basename, isAbsolute, resolve } from 'node:path';
import { splitWords } from '../policy/command-secret-paths.js';
import { realOrGiven } from '../util/real-or-given.js';

/**
 * What a hook's command named at session start, checked again before each run. The sandbox holds
 * an existing script read-only (hook-script-files.ts), but not a name: a script the command names
 * that did not exist yet (a global hook, a project without it) could be created by a command, and a
 * script that is a symlink (or lies through one) could be replaced by a file of the command's. Either
 * would run outside the sandbox at the next event. So a hook runs only while every path its command
 * names still leads where it led at start; otherwise it is skipped, with the reason.
 */
export type HookCommandRefusal = (command: string) => string | null;

/** A word of the command, its path, and the real path it led to at start (`null`: nothing). */
type NamedPathState = { readonly path: string; readonly word: string; readonly real: string | null };

/** Programs that run the file named by their first argument that is not a flag. */
const INTERPRETER =
  /^(sh|bash|dash|zsh|ksh|fish|python[0-9.]*|pypy[0-9.]*|node|nodejs|ruby|perl|php|lua|tsx|ts-node|deno|bun|Rscript|pwsh)$/;
/** Words before a program that leave it the program (`env A=1 sh x`, `exec ./x`). */
const PREFIX = /^(env|exec|command|nohup|time)$/;
/** What starts a new simple command after it. */
const SEPARATOR = /^(;|&&|\|\||\||&)$/;

export function watchHookScripts(
  commands: readonly string[],
  workDir: string,
  home: string,
): HookCommandRefusal {
  const watched = new Map<string, NamedPathState[]>();
  for (const command of new Set(commands)) {
    const states: NamedPathState[] = [];
    const scripts = new Set(scriptWords(splitWords(command)));
    for (const word of splitWords(command)) {
      const path = pathOf(word, workDir, home);
      if (existsSync(path)) states.push({ path, word, real: realOrGiven(path) });
      // A missing word is watched only where it names what runs: `hook.log` after `>>` may be made
      // by the hook itself.
      else if (scripts.has(word)) states.push({ path, word, real: null });
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
      return `A hook is skipped: ${state.word}, a path its command names, ${change} (a command may have put it there, and hooks run outside the sandbox). Start a new session to run it.`;
    }
    return null;
  };
}

function pathOf(word: string, workDir: string, home: string): string {
  if (word.startsWith('~/')) return resolve(home, word.slice(2));
  return isAbsolute(word) ? word : resolve(workDir, word);
}

/** The words that name a program or script to run: each command's first word, an interpreter's script. */
function scriptWords(words: readonly string[]): string[] {
  const scripts: string[] = [];
  let expectProgram = true;
  let interpreter = false;
  for (const word of words) {
    if (SEPARATOR.test(word)) {
      expectProgram = true;
      interpreter = false;
    } else if (expectProgram) {
      if (PREFIX.test(word) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) continue;
      // A bare program name is looked up on PATH (its trusted entries), not in the work dir.
      if (word.includes('/')) scripts.push(word);
      expectProgram = false;
      interpreter = INTERPRETER.test(basename(word));
    } else if (interpreter && !word.startsWith('-') && word !== 'run') {
      scripts.push(word);
      interpreter = false;
    }
  }
  return scripts;
}
