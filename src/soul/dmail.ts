/**
 * D-Mail (seed 002 §4.3, reference §1.14): a message the model sends to its past self. The soul
 * reverts the context to a checkpoint and hands the message to the model there. Files on disk are
 * not reverted.
 */
export interface DMail {
  message: string;
  checkpointId: number;
}

/** Holds at most one pending D-Mail and knows how many checkpoints exist to send it to. */
export class DenwaRenji {
  private pending: DMail | null = null;
  private checkpointCount = 0;

  setCheckpointCount(count: number): void {
    this.checkpointCount = count;
  }

  /** Queues a D-Mail; returns an error text for the model when it cannot be sent. */
  send(dmail: DMail): string | null {
    if (this.pending) return 'Only one D-Mail can be pending at a time.';
    if (
      !Number.isInteger(dmail.checkpointId) ||
      dmail.checkpointId < 0 ||
      dmail.checkpointId >= this.checkpointCount
    ) {
      return `There is no checkpoint with id ${dmail.checkpointId}.`;
    }
    this.pending = { ...dmail };
    return null;
  }

  /** Takes the pending D-Mail, if any. */
  take(): DMail | null {
    const dmail = this.pending;
    this.pending = null;
    return dmail;
  }

  get hasPending(): boolean {
    return this.pending !== null;
  }
}
