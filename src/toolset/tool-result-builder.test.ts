import { describe, expect, it } from 'vitest';
import { ToolResultBuilder, TRUNCATION_MARKER } from './tool-result-builder.js';

describe('ToolResultBuilder', () => {
  it('keeps output within budget and says so in the message', () => {
    const builder = new ToolResultBuilder({ maxChars: 20 });
    expect(builder.write('0123456789\n')).toBe(11);
    expect(builder.write('abcdefghijklmnop\n')).toBe(9);
    expect(builder.write('more\n')).toBe(0);
    expect(builder.isFull).toBe(true);
    expect(builder.ok('Command executed successfully')).toEqual({
      is_error: false,
      output: '0123456789\nabcdefghi',
      message: 'Command executed successfully. Output is truncated to fit in the message.',
      display: [],
    });
  });

  it('cuts long lines at 2,000 characters with a marker and keeps the line break, across writes', () => {
    const builder = new ToolResultBuilder();
    builder.write('x'.repeat(1500));
    builder.write(`${'y'.repeat(1500)}\nnext\n`);
    const [first, second] = builder.output.split('\n');
    expect(first).toHaveLength(2000);
    expect(first!.endsWith(TRUNCATION_MARKER)).toBe(true);
    expect(second).toBe('next');
    expect(builder.nLines).toBe(2);
    expect(builder.error('Command failed with exit code: 1', 'Failed').message).toBe(
      'Command failed with exit code: 1. Output is truncated to fit in the message.',
    );
  });

  it('has no per-line cap when asked (web tools), no notice when nothing was cut, and a brief display', () => {
    const builder = new ToolResultBuilder({ maxLineLength: null });
    builder.write('z'.repeat(5000));
    expect(builder.ok('', 'Fetched')).toEqual({
      is_error: false,
      output: 'z'.repeat(5000),
      message: '',
      display: [{ type: 'brief', text: 'Fetched' }],
    });
  });

  it('tail() gives the last five non-empty lines, each at most 200 characters', () => {
    const builder = new ToolResultBuilder();
    builder.write(['1', '2', '', '3', '4', '5', 'w'.repeat(300), '', ''].join('\n'));
    const tail = builder.tail().split('\n');
    expect(tail.slice(0, 4)).toEqual(['2', '3', '4', '5']);
    expect([...tail[4]!]).toHaveLength(200);
  });
});
