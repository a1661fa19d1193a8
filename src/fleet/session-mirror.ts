import { mkdir, readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Redis } from 'ioredis';
import { isSessionHeldOutsideFleet } from '../session/session-lock.js';
import { loadContextBytes } from '../soul/context/load-context-file.js';
import { writeFileAtomic } from '../util/atomic-file.js';
import { MAX_SESSION_LINE_BYTES } from '../util/bounded-lines.js';
import type { WriteFence } from '../util/write-fence.js';
import { parseWireFile } from '../wire/wire-file.js';
import type { StoredPart } from './fleet-keys.js';
import {
  commitSessionWrite,
  MAX_STORED_BYTES,
  readStoredSession,
  readStoredSizes,
  StoreFenced,
  type StoreHolder,
  StoreLimitExceeded,
} from './session-store.js';
import { LeaseLost, type TurnLease } from './turn-lease.js';

/** Where a worker keeps its copy (the cache) of a session's parts. */
export type SessionPartFiles = Record<StoredPart, string>;

/** What the store holds for a session cannot be loaded: said clearly; nothing local is changed. */
export class StoredSessionInvalid extends Error {
  override name = 'StoredSessionInvalid';
}

const PARTS: readonly StoredPart[] = ['context', 'wire', 'state'];

/**
 * Before a turn: where the worker's copy of a part is missing, behind or otherwise not what the
 * store committed, the store's content replaces it. The store's content is checked like any
 * session file from elsewhere (whoever can write to Redis wrote it): bounded size and line length,
 * every record of the history and the event log schema-checked, the state a JSON object.
 */
export async function loadSessionFromStore(
  redis: Redis,
  sessionId: string,
  files: SessionPartFiles,
): Promise<void> {
  // A session a local process has open (not through the fleet) is not overwritten under it: opening
  // it is refused next, with the lock's error.
  if (await isSessionHeldOutsideFleet(dirname(files.context))) return;
  const stored = await readStoredSession(redis, sessionId);
  const valid = PARTS.flatMap((part) => {
    const text = stored[part];
    if (text === null) return [];
    checkStoredPart(part, text);
    return [{ part, bytes: Buffer.from(text, 'utf8') }];
  });
  for (const { part, bytes } of valid) {
    const local = await readLocal(files[part]);
    if (local?.equals(bytes)) continue;
    await mkdir(dirname(files[part]), { recursive: true });
    await writeFileAtomic(files[part], bytes);
  }
}

/**
 * After the session was opened under the fence: what opening wrote locally (a new session's system
 * prompt, its first state) or what the store never had (a session begun before the fleet) is
 * committed, fenced like every other write. A part equal to the store's is left alone.
 */
export async function commitLocalChanges(
  redis: Redis,
  sessionId: string,
  files: SessionPartFiles,
  fence: WriteFence,
): Promise<void> {
  // Opening only ever adds to the history and the event log (a new session's system prompt, a
  // header): one whose size is the store's is the store's, and is not read again. The state is.
  const sizes = await readStoredSizes(redis, sessionId);
  const differing: StoredPart[] = [];
  for (const part of PARTS) {
    const size = await stat(files[part]).then(
      (found) => found.size,
      () => null,
    );
    if (size !== null && (part === 'state' || size !== sizes[part])) differing.push(part);
  }
  if (differing.length === 0) return;
  const stored = await readStoredSession(redis, sessionId, differing);
  for (const part of differing) {
    const local = await readLocal(files[part]);
    if (local === null) continue;
    const storedText = stored[part];
    if (storedText !== null && Buffer.from(storedText, 'utf8').equals(local)) continue;
    const text = local.toString('utf8');
    // The event log only ever grows; the others are replaced whole.
    if (part === 'wire' && storedText !== null && text.startsWith(storedText))
      await fence({ file: 'wire', op: 'append', text: text.slice(storedText.length) });
    else if (part !== 'wire') await fence({ file: part, op: 'replace', text });
    else if (storedText === null) await fence({ file: 'wire', op: 'append', text });
  }
}

/**
 * The write fence of a turn: each write is committed to the store, conditional on the lease, before
 * it reaches the worker's files. Refused once, refused for good (the lease is lost for this attempt).
 */
export function storeFence(
  redis: Redis,
  sessionId: string,
  holder: StoreHolder,
  lease: TurnLease,
): WriteFence {
  return async (write) => {
    if (lease.lost) await lease.check();
    try {
      await commitSessionWrite(redis, sessionId, holder, write);
    } catch (error) {
      if (error instanceof StoreLimitExceeded) throw error;
      const reason =
        error instanceof StoreFenced
          ? error.message
          : 'The lease on the session could not be confirmed: Redis is unreachable.';
      lease.lose(reason);
      throw new LeaseLost(reason);
    }
  };
}

function checkStoredPart(part: StoredPart, text: string): void {
  const bytes = Buffer.byteLength(text, 'utf8');
  const what = `The session store's ${part === 'state' ? 'state.json' : `${part}.jsonl`}`;
  if (bytes > MAX_STORED_BYTES[part])
    throw new StoredSessionInvalid(`${what} is ${bytes} bytes, over the limit of ${MAX_STORED_BYTES[part]}.`);
  switch (part) {
    case 'context': {
      checkLineLengths(what, text);
      const loaded = loadContextBytes(Buffer.from(text, 'utf8'));
      const problem = loaded.warnings[0];
      if (problem)
        throw new StoredSessionInvalid(`${what} is not valid: line ${problem.line}: ${problem.problem}`);
      return;
    }
    case 'wire': {
      checkLineLengths(what, text);
      const parsed = parseWireFile(text);
      const problem = parsed.problems[0];
      if (problem)
        throw new StoredSessionInvalid(`${what} is not valid: line ${problem.line}: ${problem.message}`);
      if (parsed.tornTail)
        throw new StoredSessionInvalid(`${what} is not valid: its last line is cut short.`);
      return;
    }
    case 'state': {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        throw new StoredSessionInvalid(`${what} is not valid: not JSON.`);
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        throw new StoredSessionInvalid(`${what} is not valid: not a JSON object.`);
      return;
    }
  }
}

function checkLineLengths(what: string, text: string): void {
  let start = 0;
  let line = 1;
  while (start < text.length) {
    const end = text.indexOf('\n', start);
    const stop = end === -1 ? text.length : end;
    // A UTF-16 unit is at most 3 bytes of UTF-8: only a line that long is measured exactly.
    if (
      stop - start > MAX_SESSION_LINE_BYTES / 3 &&
      Buffer.byteLength(text.slice(start, stop)) > MAX_SESSION_LINE_BYTES
    )
      throw new StoredSessionInvalid(
        `${what} is not valid: line ${line} is longer than ${MAX_SESSION_LINE_BYTES} bytes.`,
      );
    start = stop + 1;
    line++;
  }
}

async function readLocal(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
