import { basename, dirname, isAbsolute, resolve, sep } from 'node:path';
import { DecisionRealPaths } from './decision-real-paths.js';
import { expandHome } from './real-path.js';
import { fileSecretContentReason } from './secret-content.js';
import { type SensitiveHomes, sensitiveReason } from './sensitive-files.js';

/**
 * Why a command reads a secret file, or null: one of its words names one (`cat prod.env`,
 * `base64 < .envrc`, `cp ~/.kimi-ts/config.toml x`, `dd if=.env`, `cat *.env`). Works on the parts
 * the policy's parser already split (shell-command.ts); this file only reads their words. Not a proof
 * that a command reads no secret (a variable or a generated name is invisible here): the sandbox
 * hides the agent's own files; this makes the plain cases a question the person answers.
 */
export async function commandSecretReason(
  parts: readonly string[],
  cwd: string,
  homes: SensitiveHomes,
  /** The clock folders are judged settled on (tests move it). */
  now: () => number = Date.now,
  /** Words a loop hands to its body (ParsedCommand.loopWords): each may name a file the body reads. */
  loopWords: readonly string[] = [],
): Promise<string | null> {
  const home = homes.userHome;
  // Each word's files looked up in the command's order (synchronously: see DecisionRealPaths); the
  // first secret is the answer. Only a `.git/config` is read for its content, and only then does
  // the decision wait on the file system.
  const words = wordsOf(parts, loopWords);
  const reals = new DecisionRealPaths(now);
  const base = absoluteFolder(cwd);
  const reasons: (string | null | Promise<string | null>)[] = [];
  let pending = false;
  for (const word of words) {
    const reason = wordReason(word, expandWord(expandHome(word, home), base, reals), reals, homes);
    // Nothing before it is pending: the first secret found is the answer.
    if (typeof reason === 'string' && !pending) return reason;
    pending ||= reason !== null;
    reasons.push(reason);
  }
  if (!pending) return null;
  return (await Promise.all(reasons)).find((r) => r !== null) ?? null;
}

/** The last working folder made absolute: every decision of a session names the same one. */
let lastFolder: { given: string; absolute: string } | null = null;

/**
 * `resolve(cwd)`, kept for an absolute cwd (its answer is the text's alone; a relative one depends on
 * the process's working folder, which can change).
 */
function absoluteFolder(cwd: string): string {
  if (lastFolder?.given === cwd) return lastFolder.absolute;
  const absolute = resolve(cwd);
  if (isAbsolute(cwd)) lastFolder = { given: cwd, absolute };
  return absolute;
}

/** Why a word names a secret file (by the files it stands for), or a git config's content scan to wait for. */
function wordReason(
  word: string,
  paths: readonly string[],
  reals: DecisionRealPaths,
  homes: SensitiveHomes,
): string | null | Promise<string | null> {
  const says = (reason: string) => `it names the secret file ${word} (${reason})`;
  const scans: Promise<string | null>[] = [];
  for (const path of paths) {
    const real = reals.of(path);
    const reason = sensitiveReason(real, homes);
    if (reason !== null && scans.length === 0) return says(reason);
    if (reason !== null) scans.push(Promise.resolve(reason));
    else if (isGitConfig(real)) scans.push(gitConfigReason(real));
  }
  if (scans.length === 0) return null;
  return Promise.all(scans).then((found) => {
    const reason = found.find((r) => r !== null);
    return reason ? says(reason) : null;
  });
}

/**
 * Each word once, whichever parts (or loop word lists: every word of theirs) name it. One loop and
 * one call for both: a command with a loop, the first after plain ones, runs no code V8 has not
 * seen run (code first run after optimisation is thrown away and optimised again).
 */
function wordsOf(parts: readonly string[], loopWords: readonly string[]): Iterable<string> {
  const texts = loopWords.length === 0 ? parts : parts.concat(loopWords);
  const words = new Set<string>();
  for (let i = 0; i < texts.length; i++) {
    for (const word of candidateWords(texts[i] ?? '', i >= parts.length)) words.add(word);
  }
  return words;
}

const GIT_CONFIG = `${sep}.git${sep}config`;

function isGitConfig(real: string): boolean {
  return real.endsWith(GIT_CONFIG);
}

/** `.git/config` is secret by content only (a token in a remote URL, an auth header). */
async function gitConfigReason(real: string): Promise<string | null> {
  const reason = await fileSecretContentReason(real);
  return reason ? `a git config that ${reason}` : null;
}

/** Operators a word may start with that are not part of the path: redirections, process substitution. */
/** How a word with such an operator starts (most words do not: no replace for them). */
const REDIRECT_START = /^[\d<>&]/;
const REDIRECT_PREFIX = /^(?:\d*(?:<<<|<<-?|<>|>>|>\||>&|<&|&>>|&>|<|>)|[<>]\()/;

/** `NAME=`, `NAME+=`, `NAME[i]=`: the start of an assignment word. */
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=/;

/**
 * The words of a part that could name a file: every word but the command name (assignments before
 * it count: `f=prod.env` names prod.env), values of `x=y`, the items of an array `a=(x y)`. A loop's
 * word list is words only: each of them.
 */
function candidateWords(part: string, loopList: boolean): string[] {
  const split = splitWords(part);
  if (loopList) return split;
  const out: string[] = [];
  let named = false;
  let inArray = false;
  for (const raw of split) {
    let word = REDIRECT_START.test(raw) ? raw.replace(REDIRECT_PREFIX, '') : raw;
    // A redirection's target is no command name (`< .env`, `< .env cat x`): what follows is read.
    if (word !== raw) named = true;
    if (word === '') continue;
    // The command's own name is no argument.
    if (!named && !inArray && !ASSIGNMENT.test(word)) {
      named = true;
      continue;
    }
    if (word.includes('=')) word = word.slice(word.lastIndexOf('=') + 1);
    else if (word.startsWith('-')) continue;
    if (word.startsWith('(')) {
      inArray = true;
      word = word.slice(1);
    }
    if (inArray && word.endsWith(')')) {
      inArray = false;
      word = word.slice(0, -1);
    }
    if (word !== '') out.push(word);
  }
  return out;
}

/** Splits a command part into words with quotes and backslashes removed (enough to read file names). */
export function splitWords(text: string): string[] {
  // No quote or backslash (most parts): the words are the runs between blanks.
  if (!QUOTING.test(text)) return text.split(BLANKS).filter((word) => word !== '');
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < text.length) current += text[++i];
      else current += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < text.length) {
      current += text[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += c;
      inWord = true;
    }
  }
  if (inWord) words.push(current);
  return words;
}

const QUOTING = /['"\\]/;
const BLANKS = /\s+/;

/** A word with `*`, `?` or `[…]` in its last part stands for the files it matches there. */
function expandWord(word: string, cwd: string, reals: DecisionRealPaths): string[] {
  // Most words are a plain name in the folder (`src-1`, `notes.txt`): the path is the folder's plus
  // the name, as resolve would make it, without its normalising pass.
  if (PLAIN_NAME.test(word) && word !== '.' && word !== '..')
    return [cwd === sep ? `${sep}${word}` : `${cwd}${sep}${word}`];
  const path = resolve(cwd, word);
  const name = basename(path);
  if (!/[*?[]/.test(name) || /[*?[]/.test(dirname(path))) return [path];
  const entries = reals.list(dirname(path));
  // A folder with nothing in it (or none there: `src-1/*.ts`) needs no pattern built.
  if (entries.length === 0) return [path];
  const pattern = globToRegExp(name);
  return [
    path,
    ...entries.filter((entry) => pattern.test(entry)).map((entry) => resolve(dirname(path), entry)),
  ];
}

/** A name with no separator and no glob character (nothing resolve or a glob would change). */
const PLAIN_NAME = /^[^/\\*?[]+$/;

function globToRegExp(glob: string): RegExp {
  let source = '';
  for (const c of glob) {
    if (c === '*') source += '.*';
    else if (c === '?') source += '.';
    else if (c === '[' || c === ']') source += c;
    else source += c.replace(/[.+^${}()|\\/]/g, '\\$&');
  }
  try {
    return new RegExp(`^${source}$`);
  } catch {
    return /^$/;
  }
}
