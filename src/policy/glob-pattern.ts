import picomatch from 'picomatch';

/** What picomatch reads as syntax and a rule's glob takes literally (only `*`, `?`, `/` mean more). */
const PICOMATCH_SYNTAX = /[\\[\]{}()!+@|^$,]/g;

/**
 * A path glob for picomatch: every character but `*`, `?` and `/` escaped, and a `**` inside a
 * folder name (`src/**.ts`) still crossing folders, as the README says `**` does. picomatch (like
 * git) reads such a `**` as `*`; for a deny rule that would quietly narrow what it denies, so it
 * becomes two alternatives: a `*` within the name, or `*`, any folders, `*` across folders.
 */
function pathGlobForPicomatch(glob: string): string {
  const escaped = glob.replace(PICOMATCH_SYNTAX, '\\$&');
  return escaped.replace(/\*\*+/g, (stars, at: number) => {
    const startsSegment = at === 0 || escaped[at - 1] === '/';
    const endsSegment = at + stars.length === escaped.length || escaped[at + stars.length] === '/';
    return startsSegment && endsSegment ? '**' : '*{,/**/}*';
  });
}

/** A wildcard over a whole string (a command, a URL): `*` any run of characters, `?` one. */
function compileWildcard(glob: string): (text: string) => boolean {
  let source = '';
  for (const char of glob) {
    if (char === '*') source += '.*';
    else if (char === '?') source += '.';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  const regex = new RegExp(`^${source}$`, 's');
  return (text) => regex.test(text);
}

/**
 * A rule's argument glob. `*` matches any run of characters and `?` one character; for paths
 * (`pathLike`) `*` and `?` stop at `/` and `**` crosses it (picomatch, dot files included).
 * Everything else is literal. Commands and URLs are not paths: there `*` crosses `/` and newlines,
 * so `Shell(rm -rf*)` still denies `rm -rf /` and a command continued on a second line.
 */
export function compileGlob(glob: string, pathLike: boolean): (text: string) => boolean {
  if (!pathLike) return compileWildcard(glob);
  return picomatch(pathGlobForPicomatch(glob), { dot: true });
}
