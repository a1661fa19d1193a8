/**
 * Text from the model, a tool or a file made inert for a terminal: every control character other
 * than newline becomes a visible stand-in (ESC is `␛`, BEL `␇`, C1 controls `<U+009B>`), so no escape
 * sequence, title change, cursor move or bidi override from untrusted text ever reaches the terminal.
 * Tabs become spaces (their width is the terminal's guess, not ours).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function sanitizeForTerminal(text: string): string {
  return text.replace(UNSAFE, visible);
}

function visible(char: string): string {
  const code = char.charCodeAt(0);
  if (char === '\t') return '    ';
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '␡';
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}
