/**
 * Checkpoints of the files (the work dir and the add-dirs) at the points `/rewind` returns to. The
 * soul says when a turn and a step begin and end; the app records (src/app/rewind/). Every method but
 * `untilRecorded` only starts work and returns at once, so a turn never waits for a checkpoint unless
 * a side-effecting tool is about to run before the checkpoint is done.
 */
export interface WorkTreeCheckpoints {
  /** A turn of the user begins: record the files as they are, before it. */
  beginTurn(turn: {
    /** What the user typed. */
    prompt: string;
    /** The text of the user message the turn adds to the context (a command's prompt expanded). */
    contextText: string;
    contextCheckpoint: number;
  }): void;
  /** Step `n` (> 1) of the turn begins: record again, if the previous step ran a side-effecting tool. */
  beginStep(n: number): void;
  /**
   * The turn ended (or failed): record the state the session leaves the files in. Awaited: after a
   * turn that ran side-effecting tools it resolves once that state is recorded, otherwise at once.
   */
  endTurn(): Promise<void>;
  /** Resolves once the pending record is done; a side-effecting tool awaits it before it runs. */
  untilRecorded(signal: AbortSignal): Promise<void>;
}
