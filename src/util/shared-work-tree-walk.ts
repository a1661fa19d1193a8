import { type FolderVisitor, MAX_VISITORS, type UnreadFolder, type WorkTreeWalk } from './work-tree-walk.js';

/**
 * One WorkTreeWalk shared by the checks that read a work tree at the same moments (after each
 * command: the nested repositories' git metadata and the secret files): the readings they ask for
 * in the same turn of the event loop are one reading, which lstats each folder once, lists again
 * each changed folder once and hands each folder to every visitor that wants it.
 *
 * A reading starts after the one under way (which may have passed a folder before it changed),
 * never beside it, and not in the asker's stretch of the event loop (a command's result goes out
 * first).
 */
export class SharedWorkTreeWalk {
  /** The visitors of the reading not started yet, and that reading. */
  private gathering: { visitors: FolderVisitor[]; reading: Promise<readonly UnreadFolder[]> } | null = null;
  /** The last reading asked for, settled or not. */
  private last: Promise<unknown> = Promise.resolve();

  constructor(readonly walk: WorkTreeWalk) {}

  /**
   * Hands each folder of the next reading to `visitor` (the Descent it answers is heeded). Settles
   * when the reading is done, with the folders that could not be looked at (left out).
   */
  read(visitor: FolderVisitor): Promise<readonly UnreadFolder[]> {
    // Full (commands ending faster than a large tree is read): the next reading gathers the rest.
    if (this.gathering !== null && this.gathering.visitors.length < MAX_VISITORS) {
      this.gathering.visitors.push(visitor);
      return this.gathering.reading;
    }
    const visitors = [visitor];
    const start = async () => {
      await new Promise<void>((done) => setImmediate(done));
      // No visitor joins this reading from now on (a full one may have been followed already).
      if (this.gathering?.visitors === visitors) this.gathering = null;
      const unread: UnreadFolder[] = [];
      await this.walk.read(visitors, { unread: (folder) => unread.push(folder) });
      return unread;
    };
    const reading = this.last.then(start, start);
    this.gathering = { visitors, reading };
    this.last = reading.catch(() => undefined);
    return reading;
  }
}
