import { stat } from 'node:fs/promises';

/** Whether `path` is a directory (false when it is missing or unreadable). */
export async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
