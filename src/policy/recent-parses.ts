/**
 * How many command texts a generation holds: the cache keeps the last GENERATION to 2×GENERATION
 * distinct texts used. Enough for a retry, a question asked again, the commands of a turn.
 */
export const GENERATION = 32;

/**
 * Commands tree-sitter parsed recently, by their exact text: two generations of Maps, the older
 * dropped whole when the newer is full; a text found in the older is kept in the newer.
 *
 * Why not one Map whose oldest entry is deleted at each new text (a least-recently-used list): V8's
 * Map rehashes its table every few dozen deletions and links the old table to the new one (for live
 * iterators). Once one table of the long-lived Map sat in the old generation, each next table, and
 * every parse it held, was kept alive by the dead one before it through every scavenge and promoted:
 * a stream of new commands promoted each parse (the heap grew 3 MB per 2,000 commands until a full
 * GC), and scavenges took 4 µs per command (bench, policy, case row; --trace-gc: 126 ms of scavenges
 * in 28,000 new commands, 31 ms with nothing kept). Here a Map is only ever added to, and lives for
 * at most 2×GENERATION new texts: its tables die young.
 */
export class RecentParses<Parse> {
  private newer = new Map<string, Parse>();
  private older = new Map<string, Parse>();

  get(text: string): Parse | undefined {
    const found = this.newer.get(text);
    if (found !== undefined) return found;
    const old = this.older.get(text);
    if (old !== undefined) this.remember(text, old);
    return old;
  }

  remember(text: string, parsed: Parse): void {
    if (this.newer.size >= GENERATION) {
      this.older = this.newer;
      this.newer = new Map();
    }
    this.newer.set(text, parsed);
  }
}
