import {
  type BigIntStats,
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readlinkSync,
  readSync,
} from 'node:fs';
import { statKey } from './work-tree-stat.js';

/**
 * Reads one file of a stat picture as the picture saw it, or gives null. The work tree is the
 * model's and its commands': a background command can swap a name between a check and a read
 * (a symlink to a file outside the folder, a FIFO, a folder on the path renamed for another).
 * Checking the name, reading it, and checking the name again let a swap there and back in between
 * put another file's bytes (a key outside the workspace) into the store, where a rewind gives them
 * back inside the workspace; a FIFO blocked the event loop for good, `/dev/zero` read without end.
 * So a regular file is opened without following a symlink and without blocking, and the open file
 * itself is checked (inode, size, times): what is read is the pictured file or nothing.
 */
export function readPictured(
  full: string,
  type: 'f' | 'l',
  pictured: string | undefined,
): { content: Buffer; stat: BigIntStats } | null {
  if (type === 'l') {
    // A link's own text is read, never its target: what it points to is not read at all.
    const before = lstatSync(full, { bigint: true, throwIfNoEntry: false });
    if (before === undefined || statKey(before) !== pictured) return null;
    let content: Buffer;
    try {
      content = readlinkSync(full, { encoding: 'buffer' });
    } catch {
      return null;
    }
    const after = lstatSync(full, { bigint: true, throwIfNoEntry: false });
    return after !== undefined && statKey(after) === pictured ? { content, stat: before } : null;
  }
  let fd: number;
  try {
    fd = openSync(
      full,
      constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY,
    );
  } catch {
    return null; // gone, a symlink now (ELOOP), unreadable
  }
  try {
    const stat = fstatSync(fd, { bigint: true });
    if (statKey(stat) !== pictured) return null;
    // Exactly the pictured size: a file growing while it is read is not followed.
    const content = Buffer.alloc(Number(stat.size));
    let done = 0;
    while (done < content.length) {
      const got = readSync(fd, content, done, content.length - done, done);
      if (got === 0) return null; // shrank while read
      done += got;
    }
    // Written while it was read: what was read may be neither the old bytes nor the new ones.
    if (statKey(fstatSync(fd, { bigint: true })) !== pictured) return null;
    return { content, stat };
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}
