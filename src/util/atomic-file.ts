import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';

/**
 * Replaces a file's content so a crash leaves either the old or the new content, never a mix: the
 * data goes to a temporary file beside it, is flushed to disk, then renamed over the target. The
 * flush matters: without it a power loss after the rename can leave an empty file on some file
 * systems (ext4 delayed allocation).
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: { mode?: number } = {},
): Promise<void> {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    // `mode` applies to the new file (e.g. 0o600 for files holding secrets); rename keeps it.
    const handle = await open(temp, 'w', options.mode ?? 0o666);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
