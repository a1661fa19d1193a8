import { closeSync, openSync, readSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/**
 * What a git config file (and the files it includes) names that git later reads as config or runs:
 * the files of `include.path` and of every `includeIf.<condition>.path`, whatever the condition (the
 * condition, a branch or a folder, can change without the file changing: each is held), and the
 * values of `core.hooksPath`. Read the way git reads them: an include's relative path is relative to
 * the folder of the file that includes it, `~/` is the home; includes nest at most MAX_INCLUDE_DEPTH
 * deep (git's own limit), a file included twice (a loop) is read once.
 */
export interface GitConfigNames {
  /** Every config file read or named: the first ones, then the includes (existing or not), absolute. */
  readonly files: readonly string[];
  /** `core.hooksPath` values as written (relative ones are relative to the work tree's top). */
  readonly hooksPaths: readonly string[];
}

/** git's own limit on nested includes (config.c, MAX_INCLUDE_DEPTH). */
export const MAX_INCLUDE_DEPTH = 10;
/** How much of one config file is read: a config is a few KB; a huge one is read this far. */
export const MAX_CONFIG_BYTES = 1 << 20;

/** Reads `configFiles` (absolute; missing ones are skipped) and what they include. */
export function readGitConfigNames(configFiles: readonly string[], home: string): GitConfigNames {
  const files: string[] = [];
  const hooksPaths: string[] = [];
  const seen = new Set<string>();
  const visit = (file: string, depth: number): void => {
    if (seen.has(file)) return;
    seen.add(file);
    files.push(file);
    if (depth > MAX_INCLUDE_DEPTH) return;
    const text = readStart(file, MAX_CONFIG_BYTES);
    if (text === null) return;
    for (const { section, key, value } of configEntries(text)) {
      if (value === null) continue;
      if (key === 'path' && (section === 'include' || section.startsWith('includeif.'))) {
        const path = includePath(value, file, home);
        if (path !== null) visit(path, depth + 1);
      } else if (section === 'core' && key === 'hookspath' && value !== '') hooksPaths.push(value);
    }
  };
  for (const file of configFiles) visit(resolve(file), 0);
  return { files, hooksPaths };
}

/** Where an include names, absolute; null for one git ignores (empty, `~user/`). */
function includePath(value: string, from: string, home: string): string | null {
  if (value === '') return null;
  if (value === '~' || value.startsWith('~/')) return resolve(home, value.slice(2));
  if (value.startsWith('~')) return null;
  return isAbsolute(value) ? resolve(value) : join(dirname(from), value);
}

/** The first `max` bytes of `file` as text, or null when it cannot be read (missing, a folder). */
function readStart(file: string, max: number): string | null {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const buffer = Buffer.alloc(max);
    let length = 0;
    while (length < max) {
      const read = readSync(fd, buffer, length, max - length, null);
      if (read === 0) break;
      length += read;
    }
    return buffer.toString('utf8', 0, length);
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** One `key = value` of a config: section (lower case, with `.subsection` as written), key (lower case). */
export interface ConfigEntry {
  readonly section: string;
  readonly key: string;
  /** null for a key with no `=` (a boolean true). */
  readonly value: string | null;
}

/**
 * The entries of a git config text, parsed as git does (config.c): `[section]`, `[section
 * "subsection"]` and `[section.subsection]` headers, a key on the header's line, `#`/`;` comments,
 * quoted values with `\"`, `\\`, `\n`, `\t`, `\b` escapes and a `\` at a line's end continuing the
 * value. A line git would reject is skipped (git refuses the whole file then: nothing it names runs).
 */
export function configEntries(text: string): ConfigEntry[] {
  const entries: ConfigEntry[] = [];
  let section = '';
  let i = 0;
  const n = text.length;
  const skipBlanks = () => {
    while (i < n && (text[i] === ' ' || text[i] === '\t' || text[i] === '\r')) i++;
  };
  const skipLine = () => {
    while (i < n && text[i] !== '\n') i++;
    i++;
  };
  while (i < n) {
    skipBlanks();
    const c = text[i];
    if (c === undefined) break;
    if (c === '\n') {
      i++;
      continue;
    }
    if (c === '#' || c === ';') {
      skipLine();
      continue;
    }
    if (c === '[') {
      const header = readHeader(text, i + 1);
      if (header === null) {
        skipLine();
        continue;
      }
      section = header.section;
      i = header.end;
      continue;
    }
    const match = /^[A-Za-z][A-Za-z0-9-]*/.exec(text.slice(i, i + 256));
    if (match === null) {
      skipLine();
      continue;
    }
    const key = match[0].toLowerCase();
    i += match[0].length;
    skipBlanks();
    if (text[i] !== '=') {
      entries.push({ section, key, value: null });
      skipLine();
      continue;
    }
    i++;
    const value = readValue(text, i);
    entries.push({ section, key, value: value.value });
    i = value.end;
  }
  return entries;
}

/** A header from just after its `[`: the section's name and where parsing goes on (after `]`). */
function readHeader(text: string, start: number): { section: string; end: number } | null {
  let i = start;
  let name = '';
  while (i < text.length && /[A-Za-z0-9.-]/.test(text[i]!)) name += text[i++];
  if (name === '') return null;
  if (text[i] === ']') return { section: name.toLowerCase(), end: i + 1 };
  // `[section "subsection"]`: the subsection as written (case kept), `\x` is x.
  while (text[i] === ' ' || text[i] === '\t') i++;
  if (text[i] !== '"') return null;
  i++;
  let sub = '';
  while (i < text.length && text[i] !== '"') {
    if (text[i] === '\n') return null;
    if (text[i] === '\\') i++;
    sub += text[i++] ?? '';
  }
  if (text[i + 1] !== ']') return null;
  return { section: `${name.toLowerCase()}.${sub}`, end: i + 2 };
}

/** A value from just after its `=`: unquoted, unescaped, trailing blanks dropped; and where the line ends. */
function readValue(text: string, start: number): { value: string; end: number } {
  // Most values are plain: no quote, escape or comment on their line.
  const lineEnd = text.indexOf('\n', start);
  const end = lineEnd === -1 ? text.length : lineEnd;
  const line = text.slice(start, end);
  if (!/["\\#;]/.test(line)) return { value: line.replace(/^[ \t\r]+|[ \t\r]+$/g, ''), end: end + 1 };
  let i = start;
  let value = '';
  let quoted = false;
  /** Blanks seen outside quotes, kept only if more of the value follows. */
  let pending = '';
  while (i < text.length) {
    const c = text[i]!;
    // A quote left open at the line's end: git rejects the line; what was read is kept (held, not run).
    if (c === '\n') return { value, end: i + 1 };
    if (!quoted && (c === '#' || c === ';')) {
      while (i < text.length && text[i] !== '\n') i++;
      return { value, end: i + 1 };
    }
    if (!quoted && (c === ' ' || c === '\t' || c === '\r')) {
      if (value !== '') pending += c;
      i++;
      continue;
    }
    value += pending;
    pending = '';
    if (c === '"') {
      quoted = !quoted;
      i++;
      continue;
    }
    if (c === '\\') {
      const next = text[i + 1];
      i += 2;
      if (next === '\n') continue;
      if (next === '\r' && text[i] === '\n') {
        i++;
        continue;
      }
      value += next === 'n' ? '\n' : next === 't' ? '\t' : next === 'b' ? '\b' : (next ?? '');
      continue;
    }
    value += c;
    i++;
  }
  return { value, end: i };
}
