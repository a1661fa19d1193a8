import { CheckpointStoreError, runGit } from './git-runner.js';

/** How many blobs one `git cat-file --batch` reads before the next batch starts (bounds memory). */
const BATCH = 256;

/** Reads blobs of the store by id, in batches. */
export async function readBlobs(
  gitDir: string,
  ids: readonly string[],
  signal?: AbortSignal,
): Promise<Map<string, Buffer>> {
  const blobs = new Map<string, Buffer>();
  const unique = [...new Set(ids)];
  for (let start = 0; start < unique.length; start += BATCH) {
    const batch = unique.slice(start, start + BATCH);
    const { stdout } = await runGit(['cat-file', '--batch'], {
      gitDir,
      input: `${batch.join('\n')}\n`,
      signal,
    });
    let offset = 0;
    for (const id of batch) {
      const headerEnd = stdout.indexOf(0x0a, offset);
      if (headerEnd < 0) throw new CheckpointStoreError(`checkpoint object ${id} could not be read`);
      const header = stdout.subarray(offset, headerEnd).toString('utf8').split(' ');
      if (header[1] === 'missing' || header.length < 3) {
        throw new CheckpointStoreError(`checkpoint object ${id} is missing from the store`);
      }
      const size = Number(header[2]);
      const body = stdout.subarray(headerEnd + 1, headerEnd + 1 + size);
      blobs.set(id, Buffer.from(body));
      offset = headerEnd + 1 + size + 1;
    }
  }
  return blobs;
}
