import { basename } from 'node:path';

/** Programs that run the file named by their first argument that is not a flag. */
const INTERPRETER =
  /^(sh|bash|dash|zsh|ksh|fish|python[0-9.]*|pypy[0-9.]*|node|nodejs|ruby|perl|php|lua|tsx|ts-node|deno|bun|Rscript|pwsh)$/;
/** Words before a program that leave it the program (`env A=1 sh x`, `exec ./x`). */
const PREFIX = /^(env|exec|command|nohup|time)$/;
/** What starts a new simple command after it. */
const SEPARATOR = /^(;|&&|\|\||\||&)$/;

/** A word of a command that names a script to run, and the interpreter that runs it (null: run itself). */
export interface ScriptWord {
  readonly word: string;
  readonly interpreter: string | null;
}

/** The path of a script a hook or MCP server runs (as given), and the interpreter that runs it. */
export interface NamedScript {
  readonly path: string;
  readonly interpreter: string | null;
}

/**
 * The words of a command (split, quotes removed) that name a program or script to run: each simple
 * command's first word when it is a path (a bare name is looked up on PATH, not in a folder of the
 * command's), and the script an interpreter runs (`sh scripts/x.sh`, `node ./mcp.mjs`).
 */
export function scriptWords(words: readonly string[]): ScriptWord[] {
  const scripts: ScriptWord[] = [];
  let expectProgram = true;
  let interpreter: string | null = null;
  for (const word of words) {
    if (SEPARATOR.test(word)) {
      expectProgram = true;
      interpreter = null;
    } else if (expectProgram) {
      if (PREFIX.test(word) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) continue;
      if (word.includes('/')) scripts.push({ word, interpreter: null });
      expectProgram = false;
      interpreter = INTERPRETER.test(basename(word)) ? basename(word) : null;
    } else if (interpreter !== null && !word.startsWith('-') && word !== 'run') {
      scripts.push({ word, interpreter });
      interpreter = null;
    }
  }
  return scripts;
}

/**
 * Whether the interpreter loads modules from the script's own folder before any other: Python puts
 * the script's folder first on `sys.path`, so a `json.py` beside `scripts/check.py` runs in place of
 * the standard `json`. Such a script is held with its whole folder.
 */
export function importsFromScriptFolder(interpreter: string | null): boolean {
  return interpreter !== null && /^(python|pypy)/.test(interpreter);
}

/**
 * The simple commands of a command's words: each program with its arguments, the words before the
 * program that leave it the program (`env A=1`, `exec`) left out.
 */
export function simpleCommands(words: readonly string[]): string[][] {
  const commands: string[][] = [];
  let current: string[] | null = null;
  for (const word of words) {
    if (SEPARATOR.test(word)) current = null;
    else if (current !== null) current.push(word);
    else if (!PREFIX.test(word) && !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) {
      current = [word];
      commands.push(current);
    }
  }
  return commands;
}
