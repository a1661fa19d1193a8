import { describe, expect, it } from 'vitest';
import { GENERATION, RecentParses } from './recent-parses.js';
import { opaqueCommand, type ParsedCommand, parseShellCommand } from './shell-command.js';

const texts = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix} ${i}`);

describe('RecentParses: the last GENERATION to 2×GENERATION texts', () => {
  it('keeps a text through GENERATION newer ones, and drops it after 2×GENERATION', () => {
    const recent = new RecentParses<ParsedCommand>();
    const first = opaqueCommand('first');
    recent.remember('first', first);
    for (const text of texts('a', GENERATION)) recent.remember(text, opaqueCommand(text));
    expect(recent.get('first')).toBe(first);

    const dropped = new RecentParses<ParsedCommand>();
    dropped.remember('first', first);
    for (const text of texts('b', 2 * GENERATION)) dropped.remember(text, opaqueCommand(text));
    expect(dropped.get('first')).toBeUndefined();
  });

  it('a text found in the older generation is kept in the newer one', () => {
    const recent = new RecentParses<ParsedCommand>();
    const first = opaqueCommand('first');
    recent.remember('first', first);
    for (const text of texts('a', GENERATION)) recent.remember(text, opaqueCommand(text));
    // Now in the older generation: found, and carried over.
    expect(recent.get('first')).toBe(first);
    for (const text of texts('b', GENERATION - 1)) recent.remember(text, opaqueCommand(text));
    expect(recent.get('first')).toBe(first);
    expect(recent.get('a 0')).toBeUndefined();
  });

  it('parseShellCommand answers a command tree-sitter parsed with the parse it kept', async () => {
    const command = 'case "$m" in a) ls;; esac # recent-parses';
    const parsed = await parseShellCommand(command);
    expect(parsed.parts).toEqual(['ls']);
    expect(await parseShellCommand(command)).toBe(parsed);
  });
});
