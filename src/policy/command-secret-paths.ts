import { basename, isAbsolute, resolve, sep } from 'node:path';
import type { CommandPart } from './command-part.js';
import { type CommandScope, commandScope, partFolders } from './command-scope.js';
import { DecisionRealPaths } from './decision-real-paths.js';
import { objectStoreReason } from './git-object-words.js';
import { gitRemotesBefore } from './git-remotes-before.js';
import { type GitRun, gitRunRead, gitRunStoreReason } from './git-store-reason.js';
import { gitVariablesOfPart } from './git-variables-before.js';
import { GLOB_CHARS, globPaths } from './path-glob.js';
import { fileSecretContentReason, knownSecretContentReason } from './secret-content.js';
import { otherNameSecretReason } from './secret-other-names.js';
import { type SensitiveHomes, secretNameReason, sensitiveReason } from './sensitive-files.js';
import { splitWords } from './shell-split-words.js';
import { expandedNames, MAX_WORD_NAMES } from './shell-word-expansion.js';
import { symlinkSecretNameReason } from './symlink-secret-names.js';

export { splitWords } from './shell-split-words.js';

/**
 * Why a command reads a secret file, or null: one of its words names one (`cat prod.env`,
 * `base64 < .envrc`, `cp ~/.kimi-ts/config.toml x`, `dd if=.env`, `cat *.env`), as the shell would
 * expand it (shell-word-expansion.ts) in each folder the command may be in (command-scope.ts). Works
 * on the parts the policy's parser already split (shell-command.ts); this file only reads their
 * words. Not a proof that a command reads no secret (a name made at run time, a variable from the
 * environment, is invisible here): the sandbox hides the agent's own files; this makes the cases a
 * reader of the command can see a question the person answers.
 */
export async function commandSecretReason(
  parts: readonly string[],
  cwd: string,
  homes: SensitiveHomes,
  now: () => number = Date.now,
  loopWords: readonly string[] = [],
  sandboxHidesHomes = false,
  analysed?: readonly CommandPart[],
): Promise<string | null> {
  return commandSecretReasonNow(parts, cwd, homes, now, loopWords, sandboxHidesHomes, analysed);
}

/**
 * The same, with no promise unless a file's content must be read (one not scanned since it last
 * changed): a decision waits on nothing for the words of most commands.
 */
export function commandSecretReasonNow(
  parts: readonly string[],
  cwd: string,
  homes: SensitiveHomes,
  /** The clock folders are judged settled on (tests move it). */
  now: () => number = Date.now,
  /** Words a loop hands to its body (ParsedCommand.loopWords): each may name a file the body reads. */
  loopWords: readonly string[] = [],
  /**
   * The command runs in the sandbox, which hides the homes' secret folders and every config file:
   * after a `cd` nobody can follow, a word is then judged by its name alone (a `.env` may be in any
   * folder the command can see), not asked for whatever it is.
   */
  sandboxHidesHomes = false,
  /** The parts as the parser analysed them (the commands each runs, wrappers removed), when known. */
  analysed?: readonly CommandPart[],
): string | null | Promise<string | null> {
  // Each word's files looked up in the command's order (synchronously: see DecisionRealPaths); the
  // first secret is the answer. Only a `.git/config` is read for its content, and only then does
  // the decision wait on the file system.
  const texts = loopWords.length === 0 ? parts : parts.concat(loopWords);
  const splits = texts.map(splitWords);
  const base = absoluteFolder(cwd);
  const reals = new DecisionRealPaths(now, base);
  const scope = commandScope(splits, parts.length, texts, base, homes, reals);
  const reasons: (string | null | Promise<string | null>)[] = [];
  let pending = false;
  // Words judged in the command's own folders (most): each once, whichever parts name it.
  const seen = new Set<string>();
  // A loop's word lists first: a `$f` of its body stands for them, and the reason names the word as written.
  for (let k = 0; k < texts.length; k++) {
    const i = (k + parts.length) % texts.length;
    const loopList = i >= parts.length;
    const folders = loopList ? scope.folders : partFolders(splits[i]!, scope, reals);
    const unknownFolder =
      folders === null ? texts[i]! : unknownCdBefore(scope, i) ? scope.unknownCd!.text : null;
    for (const word of candidateWords(splits[i]!, loopList)) {
      if (folders === scope.folders && unknownFolder === null) {
        if (seen.has(word)) continue;
        seen.add(word);
      }
      const reason = wordReason(
        word,
        folders ?? scope.folders,
        unknownFolder,
        scope,
        reals,
        homes,
        sandboxHidesHomes,
      );
      // Nothing before it is pending: the first secret found is the answer.
      if (typeof reason === 'string' && !pending) return reason;
      pending ||= reason !== null;
      reasons.push(reason);
    }
    // Only a part that runs git or names a git store can print its stored blobs (a text search or two).
    if (loopList || !(texts[i]!.includes('git') || texts[i]!.includes('objects/'))) continue;
    const store = gitStoreReason(
      splits,
      i,
      parts.length,
      analysed?.[i],
      folders ?? scope.folders,
      unknownFolder,
    );
    if (typeof store === 'string' && !pending) return store;
    pending ||= store !== null;
    if (store !== null) reasons.push(store);
  }
  if (!pending) return null;
  return Promise.all(reasons).then((found) => found.find((r) => r !== null) ?? null);
}

/**
 * Why a part that runs git may print a secret git's object store holds (git-store-reason.ts), or
 * null: judged as written and as each command it runs (`xargs git show`, `timeout 5 git log -p`,
 * `find -exec git show`), with the `GIT_*` variables it sets before git.
 */
function gitStoreReason(
  splits: readonly (readonly string[])[],
  /** The part judged: `splits[i]`, of a line of `count` parts (a later part runs after it). */
  i: number,
  count: number,
  part: CommandPart | undefined,
  folders: readonly string[],
  unknownFolder: string | null,
): string | null | Promise<string | null> {
  const words = splits[i]!;
  const followed = i < count - 1;
  // The `GIT_*` variables it runs with, the remotes' names the parts before it lead somewhere.
  const assigned = gitVariablesOfPart(splits, i);
  const remotes = gitRemotesBefore(splits, i);
  const runs: GitRun[] = [{ words, assigned, followed, remotes }];
  // A part that is no git command as written (a wrapper: `xargs git show`): what it runs. The first
  // invocation is the part as written (its words above); the others, the commands it runs.
  const invocations = part?.invocations ?? [];
  if (invocations.length > 1 && gitRunRead(runs[0]!, folders[0] ?? sep) === null) {
    runs.pop();
    for (let k = 1; k < invocations.length; k++)
      runs.push({ words: invocations[k]!.map((word) => word.value), assigned, followed, remotes });
  }
  const found: (string | Promise<string | null>)[] = [];
  // A program that is no git reading git's objects itself (git-object-words.ts).
  if (runs.length === 1 && gitRunRead(runs[0]!, folders[0] ?? sep) === null) {
    const named = objectStoreReason(words, folders, unknownFolder);
    if (typeof named === 'string') return named;
    if (named !== null) found.push(named);
  }
  for (const run of runs) {
    if (unknownFolder !== null) {
      const read = gitRunRead(run, folders[0] ?? sep);
      // A remote's name is looked up in a repository's config: after such a `cd` none is known.
      if (read !== null && read.kind !== 'remote' && (read.kind !== 'writes' || followed))
        return `it prints git's stored files in a folder that cannot be known (after \`${shown(unknownFolder)}\`)`;
      continue;
    }
    for (const folder of folders) {
      const reason = gitRunStoreReason(run, folder);
      if (reason !== null) found.push(reason);
    }
  }
  if (found.length === 0) return null;
  // A ready answer first: the decision need not wait.
  const ready = found.find((reason) => typeof reason === 'string');
  if (ready !== undefined) return ready;
  if (found.length === 1) return found[0]!;
  return Promise.all(found).then((reasons) => reasons.find((r) => r !== null) ?? null);
}

/**
 * Names that are secret files only in certain folders the sandbox still shows (a `.git/config` with a
 * token in a remote URL, a project's `.aws/credentials`, `.docker/config.json`): after a `cd` nobody
 * can follow, the folder may be that one.
 */
const SECRET_BY_PLACE_NAMES: ReadonlySet<string> = new Set([
  'config',
  'credentials',
  'config.json',
  'config.toml',
  'hosts.yml',
]);

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

/**
 * Whether a `cd` nobody can follow may have run before part `i`: any part but that `cd` and the
 * substitutions inside it (`cd "$(git rev-parse --show-toplevel)"` runs `git rev-parse` first).
 */
function unknownCdBefore(scope: CommandScope, i: number): boolean {
  const cd = scope.unknownCd;
  return cd !== null && (i < cd.part || i >= cd.insideUntil);
}

/**
 * Why a word names a secret file (by the names the shell makes of it, in each folder the command
 * may be in, and the files its globs match), or the content scans to wait for.
 */
function wordReason(
  word: string,
  folders: readonly string[],
  /** The command that moved to a folder nobody can know, when this word may be read there. */
  unknownFolder: string | null,
  scope: CommandScope,
  reals: DecisionRealPaths,
  homes: SensitiveHomes,
  sandboxHidesHomes: boolean,
): string | null | Promise<string | null> {
  // A plain name (`src-1`, `build`: most words) is itself in each folder: no list of names or paths.
  if (unknownFolder === null && PLAIN_WORD.test(word) && word !== '.' && word !== '..')
    return plainNameReason(word, folders, reals, homes);
  const names = expandedNames(word, scope);
  if (names === null)
    return `the shell makes more names of ${shown(word)} than are checked (more than ${MAX_WORD_NAMES})`;
  const paths: string[] = [];
  for (const name of names) {
    if (unknownFolder !== null && !isAbsolute(name)) {
      if (!sandboxHidesHomes)
        return `it names ${shown(word)} in a folder that cannot be known (after \`${shown(unknownFolder)}\`)`;
      const byName =
        secretNameReason(name) ??
        (SECRET_BY_PLACE_NAMES.has(basename(name)) ? 'a secret in some folders the sandbox shows' : null);
      if (byName) return `it names ${shown(word)} (${byName}) in a folder that cannot be known`;
      continue;
    }
    if (isAbsolute(name)) paths.push(...expandWord(name, sep, reals));
    else for (const folder of folders) paths.push(...expandWord(name, folder, reals));
  }
  return pathsReason(word, paths, reals, homes);
}

/** How much of a word a reason quotes (a hostile word can be megabytes long). */
const SHOWN_CHARS = 120;

function shown(text: string): string {
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text;
}

/** Why one of the files a word stands for is secret, or the content scans to wait for. */
function pathsReason(
  word: string,
  paths: readonly string[],
  reals: DecisionRealPaths,
  homes: SensitiveHomes,
): string | null | Promise<string | null> {
  const scans: Promise<string | null>[] = [];
  for (const path of paths) {
    const real = reals.of(path);
    // `.env -> config/prod-values`: the name the word gives, and those on the way, are judged too.
    const reason =
      sensitiveReason(real, homes) ??
      (reals.endsInLink(path) ? symlinkSecretNameReason(path) : null) ??
      otherNameSecretReason(real);
    if (reason !== null && scans.length === 0) return namesSecret(word, reason);
    if (reason !== null) scans.push(Promise.resolve(reason));
    // A file secret by its content (a pasted token in `notes.txt`) is as secret as one by its name:
    // answered now when the file was scanned before and is unchanged (most are), else scanned.
    else if (!reals.knownMissing(path)) scanContent(real, scans);
  }
  return scansReason(word, scans);
}

/**
 * pathsReason for a plain name (no separator, glob or expansion; neither `.` nor `..`) in each of
 * the folders: the same answer, with no path made and split again per folder (see ofName).
 */
function plainNameReason(
  word: string,
  folders: readonly string[],
  reals: DecisionRealPaths,
  homes: SensitiveHomes,
): string | null | Promise<string | null> {
  const scans: Promise<string | null>[] = [];
  for (let i = 0; i < folders.length; i++) {
    const folder = folders[i]!;
    const real = reals.ofName(folder, word);
    // As in pathsReason: a name that is a symlink is judged by the names on its way too.
    const link = reals.nameLinkPath(folder, word);
    const reason =
      sensitiveReason(real, homes) ??
      (link === null ? null : symlinkSecretNameReason(link)) ??
      otherNameSecretReason(real);
    if (reason !== null && scans.length === 0) return namesSecret(word, reason);
    if (reason !== null) scans.push(Promise.resolve(reason));
    else if (!reals.knownMissingName(folder, word)) scanContent(real, scans);
  }
  return scansReason(word, scans);
}

/** Adds a file's content verdict to `scans`: the remembered one, or a scan (nothing for a file known clean). */
function scanContent(real: string, scans: Promise<string | null>[]): void {
  const known = knownSecretContentReason(real);
  if (known === undefined) scans.push(contentReason(real));
  else if (known !== null) scans.push(Promise.resolve(contentSays(real, known)));
}

/** The first secret the scans find, or null (null at once when there is nothing to wait for). */
function scansReason(word: string, scans: readonly Promise<string | null>[]): null | Promise<string | null> {
  if (scans.length === 0) return null;
  return Promise.all(scans).then((found) => {
    const reason = found.find((r) => r !== null);
    return reason ? namesSecret(word, reason) : null;
  });
}

function namesSecret(word: string, reason: string): string {
  return `it names the secret file ${shown(word)} (${reason})`;
}

const GIT_CONFIG = `${sep}.git${sep}config`;

function isGitConfig(real: string): boolean {
  return real.endsWith(GIT_CONFIG);
}

/**
 * Why a file is secret by its content (`.git/config` with a token in a remote URL, a note holding a
 * key), or null; a scan of an unchanged file is remembered (secret-content.ts).
 */
async function contentReason(real: string): Promise<string | null> {
  const reason = await fileSecretContentReason(real);
  return reason === null ? null : contentSays(real, reason);
}

function contentSays(real: string, reason: string): string {
  return isGitConfig(real) ? `a git config that ${reason}` : `a file that ${reason}`;
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
function candidateWords(split: readonly string[], loopList: boolean): readonly string[] {
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

/** The files a name stands for in a folder: the path, and the files its globs match (in any part). */
function expandWord(word: string, cwd: string, reals: DecisionRealPaths): string[] {
  // Most words are a plain name in the folder (`src-1`, `notes.txt`): the path is the folder's plus
  // the name, as resolve would make it, without its normalising pass.
  if (PLAIN_NAME.test(word) && word !== '.' && word !== '..')
    return [cwd === sep ? `${sep}${word}` : `${cwd}${sep}${word}`];
  const path = resolve(cwd, word);
  return GLOB_CHARS.test(path) ? globPaths(path, reals) : [path];
}

/** A name with no separator and no glob character (nothing resolve or a glob would change). */
const PLAIN_NAME = /^[^/\\*?[]+$/;
/** A plain name that no expansion changes either (no `{`, `~`, `$`: see shell-word-expansion.ts). */
const PLAIN_WORD = /^[^/\\*?[{~$]+$/;
