import { basename } from 'node:path';

/** Programs that run the file named by their first argument that is not a flag. */
const INTERPRETER =
  /^(sh|bash|dash|zsh|ksh|fish|python[0-9.]*|pypy[0-9.]*|node|nodejs|ruby|perl|php|lua|tsx|ts-node|deno|bun|Rscript|pwsh)$/;
/** Words before a program that leave it the program (`env A=1 sh x`, `exec ./x`). */
const PREFIX = /^(env|exec|command|nohup|time)$/;
/** What starts a new simple command after it. */
const SEPARATOR = /^(;|&&|\|\||\||&)$/;

/**
 * The words of a command (split, quotes removed) that name a program or script to run: each simple
 * command's first word when it is a path (a bare name is looked up on PATH, not in a folder of the
 * command's), and the script an interpreter runs (`sh scripts/x.sh`, `node ./mcp.mjs`).
 */
export function scriptWords(words: readonly string[]): string[] {
  const scripts: string[] = [];
  let expectProgram = true;
  let interpreter = false;
  for (const word of words) {
    if (SEPARATOR.test(word)) {
      expectProgram = true;
      interpreter = false;
    } else if (expectProgram) {
      if (PREFIX.test(word) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) continue;
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
