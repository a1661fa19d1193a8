/**
 * A rule's argument glob. `*` matches any run of characters and `?` one character; for paths
 * (`pathLike`) `*` stops at `/` and `**` crosses it. Everything else is literal.
 */
export function compileGlob(glob: string, pathLike: boolean): (text: string) => boolean {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i]!;
    if (char === '*') {
      if (pathLike && glob[i + 1] === '*') {
        i++;
        // `**/` also matches nothing, so `src/**/x` matches `src/x`.
        if (glob[i + 1] === '/') {
          i++;
          source += '(?:.*/)?';
        } else source += '.*';
      } else source += pathLike ? '[^/]*' : '.*';
    } else if (char === '?') source += pathLike ? '[^/]' : '.';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  const regex = new RegExp(`^${source}$`, 's');
  return (text) => regex.test(text);
}
