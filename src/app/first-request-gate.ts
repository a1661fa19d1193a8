/**
 * Holds back the background work a session need not do before its first model request: git for the
 * turn's first checkpoint, the pruning of old checkpoints. Each git process started before the
 * request has gone out costs the start a fork of this (large) process, the time its spawn blocks the
 * event loop and a share of the machine's cores, for work nothing waits on yet (side-effecting tools
 * wait for the checkpoint, and they come after the model's answer).
 *
 * The gate opens on the event loop's next turn after the first model answer begins (the request
 * went out whole), at once when something needs that work done now (`open`: a side-effecting tool,
 * a rewind, the session closing), or after `fallbackMs` (a session that sends no request for a
 * while: an interactive one waiting for its first prompt, a request that failed).
 */
export class FirstRequestGate {
  /** Resolves once the gate is open. */
  readonly opened: Promise<void>;
  private release!: () => void;
  private isOpen = false;
  private readonly fallback: ReturnType<typeof setTimeout>;

  constructor(fallbackMs = 3000) {
    this.opened = new Promise<void>((resolve) => {
      this.release = resolve;
    });
    this.fallback = setTimeout(this.open, fallbackMs);
    // The fallback alone never keeps the process alive.
    this.fallback.unref();
  }

  /** Opens the gate now (idempotent). */
  readonly open = (): void => {
    if (this.isOpen) return;
    this.isOpen = true;
    clearTimeout(this.fallback);
    this.release();
  };

  /**
   * A model's answer began (every answer may say so): open once the event loop has handled what
   * arrived with it, so the stream's first parts are not held up by a spawn.
   */
  readonly responseStarted = (): void => {
    if (!this.isOpen) setImmediate(this.open);
  };
}
