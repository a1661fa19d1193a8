import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, lstat, open, realpath, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { realPathOf } from '../../policy/index.js';

/**
 * The file a write lands in changed between the policy's decision and the write: a symlink was
 * swapped in for the file or one of its folders. The write is not made.
 */
export class WriteTargetChangedError extends Error {
  constructor(
    readonly given: string,
    readonly decided: string,
    detail: string,
  ) {
    super(
      `\`${given}\` changed after the change was approved (it was decided for ${decided}): ${detail}. Nothing was written; call the tool again to decide on the file as it is now.`,
    );
    this.name = 'WriteTargetChangedError';
  }
}

/** Where a write may land: the path as given and the real path the policy decided on. */
export interface DecidedTarget {
  /** Absolute path as the model named it. */
  readonly path: string;
  /** The real path when the policy decided (symlinks resolved then). */
  readonly real: string;
}

/**
 * Checks that the target still leads where it led when the policy decided: the same real path, its
 * folder a real folder (no symlink in its place), the file itself no symlink.
 */
async function checkUnchanged(target: DecidedTarget): Promise<void> {
  const now = await realPathOf(target.path);
  if (now !== target.real)
    throw new WriteTargetChangedError(target.path, target.real, `it now leads to ${now}`);
  await checkFolderAndFile(target);
}

async function checkFolderAndFile(target: DecidedTarget): Promise<void> {
  const folder = dirname(target.real);
  const realFolder = await realpath(folder).catch(() => null);
  if (realFolder !== folder)
    throw new WriteTargetChangedError(
      target.path,
      target.real,
      realFolder === null ? `its folder ${folder} is gone` : `its folder now leads to ${realFolder}`,
    );
  const info = await lstat(target.real).catch(() => null);
  if (info?.isSymbolicLink())
    throw new WriteTargetChangedError(target.path, target.real, `${target.real} is now a symlink`);
  if (info && !info.isFile())
    throw new WriteTargetChangedError(target.path, target.real, `${target.real} is no longer a file`);
}

/**
 * Replaces the file's content without following a symlink that was not there when the policy
 * decided: the bytes go to a new temporary file in the decided folder (created exclusively, so it
 * cannot be a symlink), the folder and the target are checked again right before the rename, and the
 * rename replaces the target itself (a rename never follows a symlink at its destination). The file
 * keeps its permission bits.
 */
export async function replaceFileNoFollow(target: DecidedTarget, content: string | Buffer): Promise<void> {
  await checkUnchanged(target);
  const existing = await lstat(target.real).catch(() => null);
  const temp = join(
    dirname(target.real),
    `.${basename(target.real)}.kimi-ts-${randomBytes(6).toString('hex')}`,
  );
  const handle = await open(
    temp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o600,
  );
  try {
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // A new file gets what `writeFile` would have given it (0666 less the umask); an existing one keeps its bits.
    const mode = existing ? existing.mode & 0o7777 : 0o666 & ~process.umask();
    await chmod(temp, mode);
    await checkFolderAndFile(target);
    await rename(temp, target.real);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}

/** Appends to the file, opened with O_NOFOLLOW after the same checks (an append cannot be a rename). */
export async function appendFileNoFollow(target: DecidedTarget, content: string): Promise<void> {
  await checkUnchanged(target);
  const handle = await open(
    target.real,
    constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW,
    0o666,
  ).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ELOOP')
      throw new WriteTargetChangedError(target.path, target.real, `${target.real} is now a symlink`);
    throw error;
  });
  try {
    if (!(await handle.stat()).isFile())
      throw new WriteTargetChangedError(target.path, target.real, `${target.real} is no longer a file`);
    await handle.appendFile(content, 'utf8');
  } finally {
    await handle.close();
  }
}
