const REGEX_SPECIALS = /[.*+?^${}()|[\]\\/]/g;

function escapeRegex(text: string): string {
  return text.replace(REGEX_SPECIALS, '\\$&');
}

/** Finds the `}` closing the brace group opened at `open`, or -1. */
function closingBrace(glob: string, open: number): number {
  let depth = 0;
  for (let i = open; i < glob.length; i++) {
    const char = glob[i];
    if (char === '\\') i++;
    else if (char === '{') depth++;
    else if (char === '}' && --depth === 0) return i;
  }
  return -1;
}

/** Splits a brace group's body on its top-level commas. */
function braceAlternatives(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const char = body[i];
    if (char === '\\') i++;
    else if (char === '{') depth++;
    else if (char === '}') depth--;
    else if (char === ',' && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}

/**
 * Translates a glob to a regular-expression source matching a whole `/`-separated path: `*` and `?`
 * stay within a segment, `**` crosses segments (`a/**` + `/b` also matches `a/b`), `[...]` is a set
 * (`[!...]` negated), `{a,b}` are alternatives, `\` escapes.
 */
export function globToRegexSource(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i]!;
    if (char === '*') {
      if (glob[i + 1] === '*') {
        const atStart = i === 0 || glob[i - 1] === '/';
        const atEnd = i + 2 === glob.length || glob[i + 2] === '/';
        if (atStart && atEnd) {
          if (i + 2 === glob.length) out += '.*';
          else out += '(?:.*/)?';
          i += glob[i + 2] === '/' ? 2 : 1;
          continue;
        }
        out += '.*';
        i++;
        continue;
      }
      out += '[^/]*';
    } else if (char === '?') {
      out += '[^/]';
    } else if (char === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close === -1) {
        out += '\\[';
        continue;
      }
      let body = glob.slice(i + 1, close);
      const negated = body.startsWith('!') || body.startsWith('^');
      if (negated) body = body.slice(1);
      out += `[${negated ? '^' : ''}${body.replace(/\\/g, '\\\\').replace(/]/g, '\\]')}]`;
      i = close;
    } else if (char === '{') {
      const close = closingBrace(glob, i);
      if (close === -1) {
        out += '\\{';
        continue;
      }
      out += `(?:${braceAlternatives(glob.slice(i + 1, close))
        .map(globToRegexSource)
        .join('|')})`;
      i = close;
    } else if (char === '\\' && i + 1 < glob.length) {
      out += escapeRegex(glob[++i]!);
    } else {
      out += escapeRegex(char);
    }
  }
  return out;
}

/** A compiled glob rule in the gitignore dialect that ripgrep uses for ignore files and `--glob`. */
export interface GlobRule {
  regex: RegExp;
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
  const body = globToRegexSource(pattern);
  const source = anchored || pattern.startsWith('**') ? `^${body}$` : `^(?:.*/)?${body}$`;
  return { regex: new RegExp(source), negated, dirOnly };
}
