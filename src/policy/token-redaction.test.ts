import { describe, expect, it } from 'vitest';
import { secretContentReason } from './secret-content.js';
import { markerOf, redactSpans, tokenSpans } from './token-redaction.js';

const GHP = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';

/** `text` as a redacted copy of it reads. */
function redacted(text: string): string {
  const spans = tokenSpans(text);
  if (spans === 'whole') throw new Error('whole');
  const bytes = Buffer.from(text, 'latin1');
  redactSpans(bytes, spans);
  return bytes.toString('latin1');
}

describe('tokenSpans and redactSpans', () => {
  it.each([
    ['a GitHub token', `push with ${GHP}\n`, `push with ghp_${markerOf(GHP.length - 4)}\n`],
    ['two tokens on a line', `a=${GHP} b=${GHP}`, `a=ghp_${markerOf(36)} b=ghp_${markerOf(36)}`],
    ['a quoted token keeps its quotes', `token: "${GHP}",`, `token: "ghp_${markerOf(36)}",`],
  ])('%s', (_, text, expected) => {
    const out = redacted(text);
    expect(out).toBe(expected);
    expect(out.length).toBe(text.length);
    expect(secretContentReason(out)).toBeNull();
  });

  // The rule matches only the value's first character: the value runs on to the line's end.
  it('an npm auth line keeps its key, its whole value replaced', () => {
    const text = '//r.test/:_authToken=abcdef123456\nregistry=https://r.test/\n';
    expect(redacted(text)).toBe(`//r.test/:_authToken=${markerOf(12)}\nregistry=https://r.test/\n`);
  });

  it('a private key is replaced from its header to its end marker, the same length', () => {
    const key =
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----';
    const out = redacted(`before\n${key}\nafter\n`);
    expect(out).toBe(`before\n${markerOf(key.length)}\nafter\n`);
    expect(secretContentReason(out)).toBeNull();
  });

  it('a text with nothing to take out alone (a Kubernetes Secret) is whole; a clean one has no spans', () => {
    expect(tokenSpans('kind: Secret\ndata:\n  password: aHVudGVyMg==\n')).toBe('whole');
    expect(tokenSpans('nothing to see here: ghp_short\n')).toEqual([]);
  });

  it('a marker is exactly as long as asked, and says what it is when there is room', () => {
    expect(markerOf(3)).toBe('***');
    expect(markerOf(12)).toBe('[REDACTED]**');
  });
});
