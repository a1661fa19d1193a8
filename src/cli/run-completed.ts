/**
 * Marks this process as one that ran the agent through a turn. The launcher (src/bin/kimi-ts.cts)
 * saves its V8 code cache only after such a run, so the cache holds the code a real start needs,
 * not just what `--version` touches.
 */
export function markRunCompleted(): void {
  (globalThis as Record<symbol, unknown>)[Symbol.for('kimi-ts.run-completed')] = true;
}
