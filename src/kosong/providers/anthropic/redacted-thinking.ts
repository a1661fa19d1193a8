/**
 * Redacted thinking (a `redacted_thinking` block: reasoning the API returns encrypted) travels in
 * kosong as a think part with no text whose `encrypted` is the block's data behind this prefix. The
 * prefix holds a colon, which a thinking signature (base64) never does, so a signed thinking block
 * whose text happens to be empty is never taken for a redacted one. The block must go back to the
 * API unchanged with the turn it belongs to, or a follow-up after a tool call is rejected.
 */
const REDACTED_PREFIX = 'anthropic-redacted-thinking:';

export function redactedThinkingMarker(data: string): string {
  return `${REDACTED_PREFIX}${data}`;
}

/** The block's data when `encrypted` marks redacted thinking, else null. */
export function redactedThinkingData(encrypted: string | null | undefined): string | null {
  return encrypted?.startsWith(REDACTED_PREFIX) ? encrypted.slice(REDACTED_PREFIX.length) : null;
}
