import { remoteNamed } from './git-remote-names.js';

/**
 * The remotes' names the parts before part `i` of a command line lead somewhere (`git remote add x
 * ../other && git fetch x`, git-remote-names.ts), each with what it leads to (a URL, another remote's
 * name, null when only run time knows): a later fetch through the name fetches from there, though
 * the config said nothing of it when the line was judged. Taken whatever the parts between and
 * whichever repository the earlier part named: one more store judged is no harm. Undefined when none.
 */
export function gitRemotesBefore(
  splits: readonly (readonly string[])[],
  i: number,
): ReadonlyMap<string, readonly (string | null)[]> | undefined {
  let found: Map<string, (string | null)[]> | undefined;
  for (let k = 0; k < i; k++) {
    const words = splits[k]!;
    // One look at each word for most parts; the subcommand is the first such word after git's.
    const at = words.findIndex((word) => word === 'remote' || word === 'config');
    if (at < 1 || !words.slice(0, at).some((word) => word === 'git' || word.endsWith('/git'))) continue;
    const named = remoteNamed(words[at]!, words.slice(at + 1));
    if (named === null) continue;
    found ??= new Map();
    const targets = found.get(named.name) ?? [];
    targets.push(named.target);
    found.set(named.name, targets);
  }
  return found;
}
