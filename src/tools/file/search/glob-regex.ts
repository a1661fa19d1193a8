import picomatch from 'picomatch';

/**
 * The options every search glob is compiled with: dot files match (`rg --hidden`), extglobs
 * (`+(a|b)`, `!(x)`) stay literal, as in ripgrep, which has none, and `posix` so that `[!ab]` is a
 * negated set (without it picomatch reads the `!` as a member of the set).
 */
const SEARCH_GLOB: picomatch.PicomatchOptions = { dot: true, noextglob: true, posix: true };

/**
 * A test for a whole `/`-separated path: `*` and `?` stay within a segment, `**` as a whole segment
 * crosses segments (elsewhere it is a `*`, as in git), `[...]` is a set (`[!...]` negated), `{a,b}`
 * are alternatives, `\` escapes. Several globs: any of them.
 */
export function compileGlob(globs: string | readonly string[]): (path: string) => boolean {
  return picomatch(typeof globs === 'string' ? globs : [...globs], SEARCH_GLOB);
}

/** A compiled glob rule in the gitignore dialect that ripgrep uses for `--glob`. */
export interface GlobRule {
  matches: (path: string) => boolean;
  negated: boolean;
  /** A trailing `/`: matches directories only. */
  dirOnly: boolean;
}

/**
 * Compiles one gitignore-style line: `!` negates, a trailing `/` means directories only, a slash
 * elsewhere anchors the pattern to the base directory, and a pattern without one matches a name at
 * any depth. Returns null for blank lines and comments.
 */
export function compileGlobRule(line: string): GlobRule | null {
  let pattern = line.replace(/(?<!\\)\s+$/, '');
  if (pattern === '' || pattern.startsWith('#')) return null;
  let negated = false;
  if (pattern.startsWith('!')) {
    negated = true;
    pattern = pattern.slice(1);
  } else if (pattern.startsWith('\\!') || pattern.startsWith('\\#')) {
    pattern = pattern.slice(1);
  }
  const dirOnly = pattern.endsWith('/');
  if (dirOnly) pattern = pattern.slice(0, -1);
  if (pattern === '') return null;
  const anchored = pattern.includes('/');
  if (pattern.startsWith('/')) pattern = pattern.slice(1);
  const glob = anchored || pattern.startsWith('**') ? pattern : `**/${pattern}`;
  return { matches: compileGlob(glob), negated, dirOnly };
}
