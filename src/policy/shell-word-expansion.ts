import { readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { resolve } from 'node:path';

/**
 * The names one word of a command may stand for once the shell has expanded it: braces
 * (`.e{n,}v`), a tilde (`~`, `~/x`, `~user/x`), variables (`$HOME`, `${d}`, `${X:-~/.ssh}`), in
 * bash's order. Globs are left to the caller (they need the folders the word resolves in). For the
 * secret check, so every guess leans towards more names: a variable the command assigns twice
 * stands for both values, one it never assigns stays as written (and may be any word a loop hands
 * out), quotes are already gone (a quoted `{a,b}` is expanded too).
 */

/** The most names one word may stand for: past it the word is a question by its size alone. */
export const MAX_WORD_NAMES = 256;

/** What a variable may hold in a command: the values it is assigned there, or what the agent knows. */
export interface WordScope {
  readonly home: string;
  /** Values of variables the command assigns (each the union of its assignments), and known ones. */
  readonly variables: ReadonlyMap<string, readonly string[]>;
  /** Words a loop hands out (`for d in …`): an unassigned variable may hold any of them. */
  readonly loopValues: readonly string[];
}

/** Characters that start an expansion this file makes: a word without them is itself. */
const EXPANDS = /[{~$]/;

const LONE_VARIABLE = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/;

/** The names `word` stands for, or null when it stands for more than MAX_WORD_NAMES. */
export function expandedNames(word: string, scope: WordScope): string[] | null {
  if (!EXPANDS.test(word)) return [word];
  // `"$f"` alone, unassigned here: a loop's words are judged as words already (however many).
  const lone = LONE_VARIABLE.exec(word)?.[1];
  if (lone !== undefined && !scope.variables.has(lone)) return [word];
  const braced = expandBraces(word);
  if (braced === null) return null;
  const out = new Set<string>();
  for (const name of braced) {
    for (const tilded of expandTilde(name, scope.home)) {
      const values = expandVariables(tilded, scope, 0);
      if (values === null) return null;
      for (const value of values) out.add(value);
      if (out.size > MAX_WORD_NAMES) return null;
    }
  }
  return [...out];
}

/**
 * Words longer than this with a `{` are not brace-expanded name by name: past it the word counts as
 * one that makes more names than are checked (a name a command reads is far shorter).
 */
const MAX_BRACE_WORD = 4096;

/**
 * `a{b,c}d` → `abd`, `acd` (nested, several groups); `{1..3}` and `{a..c}` sequences. A `{` with no
 * `,` or `..` inside is literal, as in bash, and so is a word with a blank in it (it was quoted:
 * `python -c "{'a': 1, 'b': 2}"`; an unquoted blank would have split the braces). Null past
 * MAX_WORD_NAMES. One group at a time from a work list, no recursion: a hostile word of thousands
 * of groups costs no stack.
 */
export function expandBraces(word: string): string[] | null {
  if (!word.includes('{') || /\s/.test(word)) return [word];
  if (word.length > MAX_BRACE_WORD) return null;
  const done: string[] = [];
  const todo = [word];
  while (todo.length > 0) {
    const next = todo.pop()!;
    const group = firstBraceGroup(next);
    if (group === null) {
      done.push(next);
      if (done.length > MAX_WORD_NAMES) return null;
      continue;
    }
    const head = next.slice(0, group.start);
    const tail = next.slice(group.end + 1);
    for (let i = group.items.length - 1; i >= 0; i--) todo.push(head + group.items[i] + tail);
    if (todo.length + done.length > MAX_WORD_NAMES) return null;
  }
  return done;
}

/** The first `{…}` that expands (a list or a sequence), with its items; null when none does. */
function firstBraceGroup(word: string): { start: number; end: number; items: string[] } | null {
  for (let start = word.indexOf('{'); start !== -1; start = word.indexOf('{', start + 1)) {
    // `${…}` is a variable, not a brace list.
    if (start > 0 && word[start - 1] === '$') continue;
    let depth = 0;
    const commas: number[] = [];
    for (let i = start; i < word.length; i++) {
      const c = word[i];
      if (c === '{') depth++;
      else if (c === '}') {
        depth--;
        if (depth === 0) {
          const body = word.slice(start + 1, i);
          if (commas.length > 0) {
            const items: string[] = [];
            let from = start + 1;
            for (const comma of commas) {
              items.push(word.slice(from, comma));
              from = comma + 1;
            }
            items.push(word.slice(from, i));
            return { start, end: i, items };
          }
          const sequence = sequenceItems(body);
          if (sequence !== null) return { start, end: i, items: sequence };
          break;
        }
      } else if (c === ',' && depth === 1) commas.push(i);
    }
  }
  return null;
}

/** `1..3`, `a..c`, `1..10..2`: the items, or null (not a sequence, or longer than the cap). */
function sequenceItems(body: string): string[] | null {
  const numbers = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(body);
  if (numbers) {
    const [from, to] = [Number(numbers[1]), Number(numbers[2])];
    const step = Math.abs(Number(numbers[3] ?? 1)) || 1;
    if (Math.abs(to - from) / step > MAX_WORD_NAMES) return Array(MAX_WORD_NAMES + 1).fill('');
    const items: string[] = [];
    for (let n = from; from <= to ? n <= to : n >= to; n += from <= to ? step : -step) items.push(String(n));
    return items;
  }
  const letters = /^([A-Za-z])\.\.([A-Za-z])$/.exec(body);
  if (letters) {
    const [from, to] = [letters[1]!.charCodeAt(0), letters[2]!.charCodeAt(0)];
    const items: string[] = [];
    for (let n = from; from <= to ? n <= to : n >= to; n += from <= to ? 1 : -1)
      items.push(String.fromCharCode(n));
    return items;
  }
  return null;
}

/** `~user` as bash reads it (a login name, then `/` or the end). */
const TILDE_USER = /^~([A-Za-z_][A-Za-z0-9_.-]*\$?)(?=\/|$)/;

/**
 * A leading tilde: `~` and `~/x` are the home; `~name/x` is that user's home, and is judged in the
 * agent's home as well (another user's `.ssh` is as secret as ours, and the current user's home by
 * name may not be `$HOME`). `~+` and `~-` are folders the command is in or was in: the rest is a
 * relative word.
 */
export function expandTilde(word: string, home: string): string[] {
  if (word[0] !== '~') return [word];
  if (word === '~' || word.startsWith('~/')) return [home + word.slice(1)];
  // `~+` is $PWD and `~-` $OLDPWD: a folder the command is or was in, where relative words resolve.
  if (/^~[+-](?:\/|$)/.test(word)) return [word.length > 2 ? word.slice(3) : '.'];
  const user = TILDE_USER.exec(word);
  if (!user?.[1]) return [word];
  const rest = word.slice(user[0].length);
  const names = [home + rest];
  const userHome = loginHome(user[1]);
  if (userHome !== null && userHome !== home) names.push(userHome + rest);
  return names;
}

let passwdHomes: Map<string, string> | null = null;

/** A login's home: the current user's from the system, another's from /etc/passwd (read once). */
function loginHome(name: string): string | null {
  try {
    const me = userInfo();
    if (me.username === name) return resolve(me.homedir);
  } catch {
    // No passwd entry for this process: look the name up below.
  }
  if (passwdHomes === null) {
    passwdHomes = new Map();
    try {
      for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
        const fields = line.split(':');
        if (fields.length >= 6 && fields[0] && fields[5]) passwdHomes.set(fields[0], fields[5]);
      }
    } catch {
      // No passwd file: only the agent's home stands for `~name`.
    }
  }
  return passwdHomes.get(name) ?? null;
}

/**
 * `$NAME`, `${NAME}`, and `${NAME<op>word}` for the default and alternative operators (`:-`, `-`,
 * `:=`, `=`, `:+`, `+`; the word counts as one of the values). Other operators (`${x%/}`) stand for
 * the variable's values. Positional and special parameters stay as written.
 */
const VARIABLE = /\$(?:\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-=+?])([^}]*)|[^}]*)?\}|([A-Za-z_][A-Za-z0-9_]*))/;

/** Defaults inside defaults (`${a:-${b:-…}}`) go this deep at most. */
const MAX_VARIABLE_DEPTH = 8;

/** VARIABLE, for every reference in a word. */
const VARIABLES = new RegExp(VARIABLE.source, 'g');

/**
 * The values of the variables in `word`, reference by reference (a loop, not recursion: a word of
 * thousands of `$a` costs no stack). A known variable's values were expanded when it was assigned
 * (scope.variables); a default word is expanded here (tilde and variables, as bash does).
 */
function expandVariables(word: string, scope: WordScope, depth: number): string[] | null {
  if (!word.includes('$')) return [word];
  let results = [''];
  let last = 0;
  for (const found of word.matchAll(VARIABLES)) {
    const values = variableValues(found, scope, depth);
    if (values === null) return null;
    const literal = word.slice(last, found.index);
    const next: string[] = [];
    for (const result of results) {
      for (const value of values) {
        next.push(result + literal + value);
        if (next.length > MAX_WORD_NAMES) return null;
      }
    }
    results = next;
    last = (found.index ?? 0) + found[0].length;
  }
  const rest = word.slice(last);
  return results.map((result) => result + rest);
}

/** What one `$NAME` / `${NAME…}` may stand for. */
function variableValues(found: RegExpMatchArray, scope: WordScope, depth: number): string[] | null {
  const name = found[1] ?? found[4] ?? '';
  const values = new Set<string>();
  const known = scope.variables.get(name);
  if (known) for (const value of known) values.add(value);
  else {
    // Not known here: it may hold what the environment gives, so it stays as written, or any word
    // a loop of the command hands out.
    values.add(found[0]);
    for (const value of scope.loopValues)
      for (const loopName of expandTilde(value, scope.home)) values.add(loopName);
  }
  const operator = found[2];
  if (operator !== undefined) {
    if (operator.endsWith('+')) values.add('');
    if (!operator.endsWith('?') && depth < MAX_VARIABLE_DEPTH) {
      for (const tilded of expandTilde(found[3] ?? '', scope.home)) {
        const alternatives = expandVariables(tilded, scope, depth + 1);
        if (alternatives === null) return null;
        for (const alternative of alternatives) values.add(alternative);
      }
    }
  }
  return values.size > MAX_WORD_NAMES ? null : [...values];
}
