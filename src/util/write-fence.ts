/**
 * One change of a session's persisted files, as a write fence sees it before it reaches the disk:
 * an append of whole lines, or the file's whole new content (a rewrite: revert, clear, state.json).
 * A fleet worker commits it to the session store in Redis first (the truth; the file is its cache).
 */
export type SessionWrite =
  | { file: 'context' | 'wire'; op: 'append'; text: string }
  | { file: 'context' | 'state'; op: 'replace'; text: string };

/** Throws to refuse the write (a lease lost): the file is then left as it was. */
export type WriteFence = (write: SessionWrite) => Promise<void>;
