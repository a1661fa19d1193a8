/**
 * Hook matchers are regular expressions searched (not anchored) in the trigger target, as Kimi CLI
 * does with Python's `re.search`. An empty matcher matches every target.
 */

export type CompiledMatcher = { ok: true; test: (target: string) => boolean } | { ok: false; error: string };

const LEADING_INLINE_FLAGS = /^\(\?([ims]+)\)/;

/**
 * Compiles a matcher. Accepts the two Python spellings that config files written for Kimi CLI are
 * likely to use and JavaScript lacks: leading global flags such as `(?i)`, and `(?P<name>...)` groups.
 */
export function compileMatcher(matcher: string): CompiledMatcher {
  if (matcher === '') return { ok: true, test: () => true };
  let source = matcher;
  let flags = '';
  const inline = LEADING_INLINE_FLAGS.exec(source);
  if (inline) {
    flags = [...new Set(inline[1])].join('');
    source = source.slice(inline[0].length);
  }
  source = source.replace(/(?<!\\)\(\?P</g, '(?<').replace(/(?<!\\)\(\?P=(\w+)\)/g, '\\k<$1>');
  try {
    const regex = new RegExp(source, flags);
    return { ok: true, test: (target) => regex.test(target) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
