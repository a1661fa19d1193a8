import { isAbsolute, resolve } from 'node:path';
import type { DecisionRealPaths } from './decision-real-paths.js';
import { folderOptionValues } from './folder-options.js';
import { GLOB_CHARS, globPaths } from './path-glob.js';
import type { SensitiveHomes } from './sensitive-files.js';
import { expandedNames, type WordScope } from './shell-word-expansion.js';

/**
 * Where the words of a command resolve and what its variables hold, worked out from all its parts
 * before any word is judged: the folders a `cd`/`pushd` may lead to and the values of variables it
 * assigns (`d=~/.ssh; cd $d`). Order is not followed (a loop runs its body again, a later part's
 * `cd` may come first): every folder any `cd` leads to is a folder every relative word may be in,
 * and a variable holds every value it is assigned anywhere. For the secret check, where more
 * folders only mean more names looked at.
 */
export interface CommandScope extends WordScope {
  /** The working folder and every folder a `cd` of the command may lead to (absolute). */
  readonly folders: readonly string[];
  /** A `cd` whose target cannot be known (`cd "$X"`, `cd -`): relative words may be anywhere. */
  readonly unknownCd: {
    readonly text: string;
    readonly part: number;
    /** The parts after it up to this index are the substitutions inside it (they run before it). */
    readonly insideUntil: number;
  } | null;
}

/** `NAME=`, `NAME+=`: an assignment word. */
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)\+?=/;
/** Commands whose arguments are assignments too. */
const DECLARATIONS = new Set(['export', 'declare', 'typeset', 'local', 'readonly']);
/** Commands that run the next word as the command (`builtin cd x`). */
const PASS_THROUGH = new Set(['builtin', 'command']);
const CHANGES_FOLDER = new Set(['cd', 'pushd']);
/** Past this many folders the next `cd` counts as one that cannot be known. */
const MAX_FOLDERS = 16;

/** The scope of a command with no `cd` and no assignment, per working folder and homes (the common case). */
const plainScopes = new WeakMap<SensitiveHomes, { base: string; scope: CommandScope }>();
/**
 * The same for a loop with no `cd` and no assignment (its loop values set per command), as the
 * general case makes it: `$PWD` and `$OLDPWD` name the working folder.
 */
const loopScopes = new WeakMap<SensitiveHomes, { base: string; scope: CommandScope }>();

/** Variables the agent knows the value of: what a command's `$HOME` names. */
function knownVariables(base: string, homes: SensitiveHomes): Map<string, string[]> {
  const home = resolve(homes.userHome);
  return new Map([
    ['HOME', [home]],
    ['PWD', [base]],
    // The folder before the last `cd`: in a command with none, taken as the working folder, as the
    // general case does (a `cd` in the command adds the folders it leads to).
    ['OLDPWD', [base]],
    ['KIMI_TS_HOME', [resolve(homes.kimiHome)]],
    ['XDG_CONFIG_HOME', [resolve(home, '.config')]],
  ]);
}

/** Where a part's command name is among its words (after assignments and `builtin`/`command`). */
export function commandNameIndex(words: readonly string[]): number {
  let i = 0;
  while (i < words.length && (ASSIGNMENT.test(words[i]!) || PASS_THROUGH.has(words[i]!))) i++;
  return i;
}

export function commandScope(
  /** Each part's words, quotes removed (the parts first, then a loop's word lists). */
  splits: readonly (readonly string[])[],
  /** How many of `splits` are parts (the rest are loop word lists). */
  partCount: number,
  partTexts: readonly string[],
  base: string,
  homes: SensitiveHomes,
  reals: DecisionRealPaths,
): CommandScope {
  const loopValues: string[] = [];
  // A loop, not slice and flat: no arrays made on the way (and no argument count limit, as a spread has).
  for (let i = partCount; i < splits.length; i++) for (const word of splits[i]!) loopValues.push(word);
  let changes = false;
  for (let i = 0; i < partCount && !changes; i++) {
    const words = splits[i]!;
    const first = words[0] ?? '';
    changes =
      ASSIGNMENT.test(first) ||
      CHANGES_FOLDER.has(first) ||
      PASS_THROUGH.has(first) ||
      DECLARATIONS.has(first);
  }
  if (!changes && loopValues.length === 0) {
    const known = plainScopes.get(homes);
    if (known?.base === base) return known.scope;
    const scope: CommandScope = {
      home: resolve(homes.userHome),
      variables: knownVariables(base, homes),
      loopValues,
      folders: [base],
      unknownCd: null,
    };
    plainScopes.set(homes, { base, scope });
    return scope;
  }
  if (!changes) {
    const known = loopScopes.get(homes);
    if (known?.base === base) return withLoopValues(known.scope, loopValues);
    const variables = knownVariables(base, homes);
    const scope: CommandScope = {
      home: resolve(homes.userHome),
      variables,
      loopValues: [],
      folders: [base],
      unknownCd: null,
    };
    loopScopes.set(homes, { base, scope });
    return withLoopValues(scope, loopValues);
  }
  const variables = knownVariables(base, homes);
  const assigned = new Set<string>();
  const scope = { home: resolve(homes.userHome), variables, loopValues };
  for (let i = 0; i < partCount; i++) {
    for (const [name, value] of assignmentsOf(splits[i]!)) {
      // A known variable the command assigns holds what it is given (and what it held, for a read before).
      const values = assigned.has(name) ? (variables.get(name) ?? []) : [...(variables.get(name) ?? [])];
      assigned.add(name);
      const names = expandedNames(value, scope);
      for (const one of names ?? [value]) if (!values.includes(one)) values.push(one);
      variables.set(name, values);
    }
  }
  const folders = [base];
  let unknownCd: CommandScope['unknownCd'] = null;
  for (let i = 0; i < partCount; i++) {
    const words = splits[i]!;
    const at = commandNameIndex(words);
    if (!CHANGES_FOLDER.has(words[at] ?? '')) continue;
    const targets = folderTargets(words.slice(at + 1), folders, scope, reals);
    if (targets === null || variables.has('CDPATH') || folders.length + targets.length > MAX_FOLDERS) {
      if (unknownCd === null) {
        // The parser lists a command's substitutions right after it, in the order they are written
        // (a part written once is inside once: `cd "$(cat x)"; cat x` reads x after the cd too).
        const text = partTexts[i] ?? words.join(' ');
        let insideUntil = i + 1;
        for (let at = 0; insideUntil < partCount; insideUntil++) {
          const found = text.indexOf(partTexts[insideUntil] ?? '', at);
          if (found === -1 || partTexts[insideUntil] === undefined) break;
          at = found + 1;
        }
        unknownCd = { text, part: i, insideUntil };
      }
      continue;
    }
    for (const target of targets) if (!folders.includes(target)) folders.push(target);
  }
  // `$PWD` and `$OLDPWD` name a folder the command is, or was, in.
  variables.set('PWD', folders);
  variables.set('OLDPWD', folders);
  return { home: scope.home, variables, loopValues, folders, unknownCd };
}

/**
 * A scope with other loop values. Written out, not spread: V8 copies a spread object field by field
 * on a slow path, which cost more than all of the rest of commandScope (CPU profile, line ticks).
 */
function withLoopValues(scope: CommandScope, loopValues: readonly string[]): CommandScope {
  return {
    home: scope.home,
    variables: scope.variables,
    loopValues,
    folders: scope.folders,
    unknownCd: scope.unknownCd,
  };
}

/** `NAME=value` words of a part: before its command, and the arguments of `export`/`declare`/…. */
function assignmentsOf(words: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  const at = commandNameIndex(words);
  const declares = DECLARATIONS.has(words[at] ?? '');
  for (const [i, word] of words.entries()) {
    if (i >= at && !(declares && i > at)) continue;
    const name = ASSIGNMENT.exec(word)?.[1];
    if (name === undefined) continue;
    // `a=(x y)`: the array's first item is what `$a` gives.
    out.push([
      name,
      word
        .slice(word.indexOf('=') + 1)
        .replace(/^\(/, '')
        .replace(/\)$/, ''),
    ]);
  }
  return out;
}

/**
 * The folders `cd ARGS` may lead to, from each folder the command may be in; null when that cannot
 * be known (`cd -`, a name an expansion decides, more names than are checked). `pushd +1` rotates
 * folders already known; `cd` alone goes home.
 */
function folderTargets(
  args: readonly string[],
  from: readonly string[],
  scope: WordScope,
  reals: DecisionRealPaths,
): string[] | null {
  const target = args.find((arg) => !/^-[LPe@]+$/.test(arg) && arg !== '--');
  if (target === undefined) return [scope.home];
  if (/^[+-]\d*$/.test(target)) return target === '-' ? null : [];
  return pathsFrom(target, from, scope, reals);
}

/** The absolute paths a word names from each folder in `from`; null when it cannot be known. */
function pathsFrom(
  word: string,
  from: readonly string[],
  scope: WordScope,
  reals: DecisionRealPaths,
): string[] | null {
  const names = expandedNames(word, scope);
  if (names === null || names.some((name) => /[$`]/.test(name))) return null;
  const out: string[] = [];
  for (const name of names) {
    for (const folder of isAbsolute(name) ? ['/'] : from) {
      const path = resolve(folder, name);
      for (const one of GLOB_CHARS.test(path) ? globPaths(path, reals) : [path])
        if (!out.includes(one)) out.push(one);
    }
  }
  return out;
}

/**
 * The folders one part's words resolve in: the command's, and those a `-C dir` style option sets
 * (each relative to the one before, as git, make and tar read them), a wrapper's too (`sudo -D dir`,
 * folder-options.ts); null when such a folder cannot be known (`git -C "$X"`).
 */
export function partFolders(
  words: readonly string[],
  scope: CommandScope,
  reals: DecisionRealPaths,
): readonly string[] | null {
  const dirs = folderOptionValues(words, commandNameIndex(words));
  if (dirs.length === 0) return scope.folders;
  const folders = [...scope.folders];
  let current: readonly string[] = scope.folders;
  for (const dir of dirs) {
    const next = pathsFrom(dir, current, scope, reals);
    if (next === null || folders.length + next.length > MAX_FOLDERS) return null;
    for (const folder of next) if (!folders.includes(folder)) folders.push(folder);
    current = next;
  }
  return folders;
}
