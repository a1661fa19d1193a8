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

/**
 * A wildcard over a whole string (a command, a URL): `*` any run of characters, `?` one.
 *
 * Most rules are a literal text or a literal text then `*` (`git status*`, `rm -rf*`): those are a
 * string compare, not a regex test. Every other glob's literal start is compared before its regex:
 * most texts a rule is tried on (each part of every Shell command, against each rule) fail there.
 */
function compileWildcard(glob: string): (text: string) => boolean {
  const literalEnd = firstWildcard(glob);
  const prefix = glob.slice(0, literalEnd);
  if (literalEnd === glob.length) return (text) => text === glob;
  if (/^\*+$/.test(glob.slice(literalEnd))) return (text) => text.startsWith(prefix);
  const regex = wildcardRegex(glob);
  return (text) => text.startsWith(prefix) && regex.test(text);
}

/** Where a glob's first `*` or `?` is; its length when it has none. */
function firstWildcard(glob: string): number {
  for (let i = 0; i < glob.length; i++) if (glob[i] === '*' || glob[i] === '?') return i;
  return glob.length;
}

function wildcardRegex(glob: string): RegExp {
  let source = '';
  for (const char of glob) {
    if (char === '*') source += '.*';
    else if (char === '?') source += '.';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 's');
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
