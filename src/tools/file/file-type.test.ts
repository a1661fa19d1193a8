import { describe, expect, it } from 'vitest';
import { detectFileType, sniffMedia } from './file-type.js';

const bytes = (...parts: (string | number[])[]): Buffer =>
  Buffer.concat(
    parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))),
  );

describe('sniffMedia', () => {
  it.each([
    ['png', bytes([0x89], 'PNG\r\n\x1a\n'), 'image/png'],
    ['jpeg', bytes([0xff, 0xd8, 0xff, 0xe0]), 'image/jpeg'],
    ['gif', bytes('GIF89a'), 'image/gif'],
    ['webp', bytes('RIFF\0\0\0\0WEBP'), 'image/webp'],
    ['avi', bytes('RIFF\0\0\0\0AVI '), 'video/x-msvideo'],
    ['heic', bytes([0, 0, 0, 0x18], 'ftypheic'), 'image/heic'],
    ['mp4', bytes([0, 0, 0, 0x18], 'ftypisom'), 'video/mp4'],
    ['quicktime', bytes([0, 0, 0, 0x14], 'ftypqt  '), 'video/quicktime'],
    ['webm', bytes([0x1a, 0x45, 0xdf, 0xa3], '....webm'), 'video/webm'],
  ])('recognises %s', (_name, data, mimeType) => {
    expect(sniffMedia(data)?.mimeType).toBe(mimeType);
  });

  it('returns null for text', () => {
    expect(sniffMedia(bytes('hello'))).toBeNull();
  });
});

describe('detectFileType', () => {
  it('trusts media suffixes, then magic bytes, then NUL bytes, then binary suffixes', () => {
    expect(detectFileType('a.PNG')).toEqual({ kind: 'image', mimeType: 'image/png' });
    expect(detectFileType('a.mov')).toEqual({ kind: 'video', mimeType: 'video/quicktime' });
    expect(detectFileType('a.dat', bytes('GIF87a'))).toEqual({ kind: 'image', mimeType: 'image/gif' });
    expect(detectFileType('a.txt', bytes('a\0b'))).toEqual({ kind: 'unknown', mimeType: '' });
    expect(detectFileType('a.pdf', bytes('%PDF-1.7'))).toEqual({ kind: 'unknown', mimeType: '' });
    expect(detectFileType('a.ts', bytes('const a = 1;'))).toEqual({ kind: 'text', mimeType: 'text/plain' });
  });

  it('reads SVG as text, unless its bytes are really another image', () => {
    expect(detectFileType('logo.svg', bytes('<svg/>'))).toEqual({ kind: 'text', mimeType: 'image/svg+xml' });
    expect(detectFileType('logo.svg', bytes([0x89], 'PNG\r\n\x1a\n'))).toEqual({
      kind: 'unknown',
      mimeType: '',
    });
  });
});
