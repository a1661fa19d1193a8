import { secretContentReason } from './secret-content.js';
import { SECRET_CONTENT_RULES, type SecretContentRule } from './secret-content-rules.js';

/** Where one token lies in a text (character offsets: byte offsets of Latin-1 text). */
export interface TokenSpan {
  readonly start: number;
  readonly end: number;
  /** How many characters at its start stay (a vendor's prefix `ghp_`, a key's `_authToken=`). */
  readonly kept: number;
}

/**
 * The tokens of `text` (the table of secret-content-rules.ts), or 'whole' when it holds a secret no
 * single value of it is (a Kubernetes Secret's base64 values, known by the manifest's kind): such a
 * text cannot be shown with its tokens taken out, only not at all. Empty when it holds none.
 */
export function tokenSpans(text: string): readonly TokenSpan[] | 'whole' {
  // Most texts hold no hint of any rule: one pass of cheap `includes`, no global pattern run.
  if (secretContentReason(text) === null) return [];
  const spans: TokenSpan[] = [];
  for (const [i, rule] of SECRET_CONTENT_RULES.entries()) {
    if (rule.also !== undefined) {
      // A rule that judges the whole text: nothing of it to take out by itself.
      if (rule.pattern.test(text) && rule.also.test(text)) return 'whole';
      continue;
    }
    const pattern = globalPatternOf(rule, i);
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      if (match[0].length === 0) {
        pattern.lastIndex++;
        continue;
      }
      // A pattern that stops at the start of a value (`_authToken=x`) or a length bound: the value
      // runs on to the next space or quote.
      const end = valueEnd(text, match.index + match[0].length);
      const start = match.index + leadingSeparator(match[0]);
      spans.push({ start, end, kept: keptPrefix(rule, text.slice(start, end)) });
    }
  }
  return mergedSpans(spans);
}

/**
 * `bytes` with each span's characters (after its kept prefix) replaced by a marker of the same
 * length: `ghp_[REDACTED]*****`. The same length keeps every offset of the file (a binary format, a
 * line count, a test that checks a fixture's size) and the marker matches no rule of the table.
 * Written in place.
 */
export function redactSpans(bytes: Buffer, spans: readonly TokenSpan[]): void {
  for (const { start, end, kept } of spans) {
    const from = start + kept;
    const length = Math.min(end, bytes.length) - from;
    if (length <= 0) continue;
    bytes.write(markerOf(length), from, length, 'latin1');
  }
}

const MARKER = '[REDACTED]';

/** A marker exactly `length` characters long. */
export function markerOf(length: number): string {
  if (length < MARKER.length) return '*'.repeat(length);
  return MARKER + '*'.repeat(length - MARKER.length);
}

/** Each rule's pattern made global (for every match), made on first use. */
const globalPatterns: RegExp[] = [];

function globalPatternOf(rule: SecretContentRule, i: number): RegExp {
  let pattern = globalPatterns[i];
  if (pattern === undefined) {
    // A private key from its header to its end marker (or the end of the text).
    const source =
      rule.what === 'a private key'
        ? `${rule.pattern.source}[\\s\\S]*?(?:-----END[^\\n]*-----|$)`
        : rule.pattern.source;
    const flags = rule.pattern.flags.includes('g') ? rule.pattern.flags : `${rule.pattern.flags}g`;
    pattern = new RegExp(source, flags);
    globalPatterns[i] = pattern;
  }
  return pattern;
}

/** The end of the value a match ends in: on past it to the next space, quote or control character. */
function valueEnd(text: string, end: number): number {
  let at = end;
  while (at < text.length) {
    const code = text.charCodeAt(at);
    if (code <= 32 || code === 34 || code === 39 || code === 96 || code === 127) break;
    at++;
  }
  return at;
}

/** The separator some patterns match first (`(?:^|[\s:])_auth…`): not the token's. */
function leadingSeparator(match: string): number {
  const code = match.charCodeAt(0);
  return code <= 32 || code === 58 ? 1 : 0;
}

/**
 * What of a token stays: the key it is given (`_authToken=`, `AccountKey=`, `secret_access_key: `),
 * or the vendor's prefix (`ghp_`, `sk-ant-`, `glpat-`, `xoxb-`), which says what it was and which no
 * rule matches alone. Nothing of a private key or a URL (its user and host stay hidden too).
 */
function keptPrefix(rule: SecretContentRule, token: string): number {
  if (rule.what === 'a private key' || rule.what === 'a URL with a password') return 0;
  const key = /^[A-Za-z_]{2,40}["']?\s*[=:]\s*["']?/.exec(token);
  if (key !== null) return key[0].length;
  const vendor = VENDOR_PREFIX.exec(token);
  return vendor === null ? 0 : vendor[0].length;
}

/** A vendor's prefix: letters and a separator, and the table's known second words (`sk-ant-`, `dop_v1_`). */
const VENDOR_PREFIX = /^[A-Za-z]{2,10}[_-](?:(?:ant|proj|svcacct|admin|live|pat|v1)[_-])?/;

/** The spans in order, overlapping ones made one (the smaller kept prefix wins). */
function mergedSpans(spans: TokenSpan[]): TokenSpan[] {
  spans.sort((a, b) => a.start - b.start);
  const merged: TokenSpan[] = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last !== undefined && span.start < last.end) {
      const end = Math.max(last.end, span.end);
      const keptEnd = Math.min(last.start + last.kept, span.start + span.kept);
      merged[merged.length - 1] = { start: last.start, end, kept: Math.max(0, keptEnd - last.start) };
    } else merged.push(span);
  }
  return merged;
}
