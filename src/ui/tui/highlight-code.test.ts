import { describe, expect, it } from 'vitest';
import { highlightCode } from './highlight-code.js';

// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping colour escapes
const strip = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

describe('highlightCode', () => {
  it('colours keywords and strings, line by line, keeping the text', () => {
    const lines = highlightCode('const a = "x & y";\n// done', 'ts');
    expect(lines.map(strip)).toEqual(['const a = "x & y";', '// done']);
    expect(lines[0]).toContain('\x1b[35mconst\x1b[39m');
    expect(lines[0]).toContain('\x1b[32m"x & y"\x1b[39m');
    expect(lines[1]).toBe('\x1b[90m// done\x1b[39m');
  });

  it('leaves code of an unknown or half-streamed language plain', () => {
    expect(highlightCode('x <- 1', 't')).toEqual(['x <- 1']);
    expect(highlightCode('a\nb', undefined)).toEqual(['a', 'b']);
  });

  it('keeps a multi-line string coloured on each of its lines', () => {
    const lines = highlightCode('s = """one\ntwo"""', 'python');
    expect(lines.map(strip)).toEqual(['s = """one', 'two"""']);
    expect(lines[1]?.startsWith('\x1b[32m')).toBe(true);
  });
});
