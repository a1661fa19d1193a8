/** Walks of the whole root tried before a file vanishing in the middle of each one is an error. */
const VANISHED_FILE_ATTEMPTS = 5;

/**
 * Runs a `git add` of a whole root again while it fails because a file vanished: git stops (128,
 * "unable to stat") when a file it listed in a folder is gone when it looks at it, in a busy work
 * dir (a build writing and removing files, other programs' temp files under /tmp). The next walk
 * does not list it any more.
 */
export async function againWhileFilesVanish<T>(add: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await add();
    } catch (error) {
      if (attempt >= VANISHED_FILE_ATTEMPTS || !isVanishedFile(error)) throw error;
    }
  }
}

function isVanishedFile(error: unknown): boolean {
  return error instanceof Error && /unable to stat .*No such file or directory/.test(error.message);
}
