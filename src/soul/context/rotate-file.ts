import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { copyFile, link, open, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';

/**
 * Replaces `file` with new content and keeps the old content as the next free rotation
 * `<name>_<n><ext>` (`context.jsonl` → `context_1.jsonl`, `context_2.jsonl`, …).
 *
 * Crash-safe at every instant: the new content is written and flushed under a temporary name; the
 * old file is then hard-linked (copied where links are unsupported) to its rotation name while it
 * stays in place; finally the temporary file is renamed over `file` in one atomic step. A crash
 * leaves `file` holding either the old or the new content, at worst with an extra backup or a stray
 * temporary file beside it.
 */
export async function rotateAndReplace(
  file: string,
  fill: (tempPath: string) => Promise<void>,
): Promise<string | null> {
  const temp = temporaryPath(file);
  try {
    await fill(temp);
    await syncFile(temp);
    const backup = await keepRotation(file);
    await rename(temp, file);
    await syncDirectory(dirname(file));
    return backup;
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** Replaces `file` atomically without keeping the old content. */
export async function replaceAtomically(
  file: string,
  fill: (tempPath: string) => Promise<void>,
): Promise<void> {
  const temp = temporaryPath(file);
  try {
    await fill(temp);
    await syncFile(temp);
    await rename(temp, file);
    await syncDirectory(dirname(file));
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

export function temporaryPath(file: string): string {
  return `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
}

/** Deletes temporary files an interrupted replacement of `file` left behind. */
export async function removeStaleTemporaries(file: string): Promise<void> {
  const prefix = `${basename(file)}.`;
  let names: string[];
  try {
    names = await readdir(dirname(file));
  } catch {
    return;
  }
  await Promise.all(
    names
      .filter((name) => name.startsWith(prefix) && name.endsWith('.tmp'))
      .map((name) => rm(join(dirname(file), name), { force: true })),
  );
}

/** Links the current file to its next rotation name; null when there is no current file. */
async function keepRotation(file: string): Promise<string | null> {
  const ext = extname(file);
  const stem = basename(file, ext);
  const pattern = new RegExp(`^${escapeRegExp(stem)}_(\\d+)${escapeRegExp(ext)}$`);
  const names = await readdir(dirname(file));
  let next = 1;
  for (const name of names) {
    const match = pattern.exec(name);
    if (match) next = Math.max(next, Number(match[1]) + 1);
  }
  for (; ; next++) {
    const target = join(dirname(file), `${stem}_${next}${ext}`);
    try {
      await link(file, target);
      return target;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') continue;
      if (code === 'ENOENT') return null;
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'EMLINK') throw error;
    }
    // No hard links on this file system: a copy is as safe, only slower.
    try {
      await copyFile(file, target, constants.COPYFILE_EXCL);
      return target;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') continue;
      if (code === 'ENOENT') return null;
      throw error;
    }
  }
}

async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Makes a rename durable; not every platform can open a directory, which is fine to skip. */
async function syncDirectory(path: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(path, 'r');
    await handle.sync();
  } catch {
    // best effort
  } finally {
    await handle?.close();
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
