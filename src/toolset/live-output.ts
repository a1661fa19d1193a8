import type { Wire } from '../wire/wire.js';

/** How often a running call's output reaches the wire at most. */
export const LIVE_OUTPUT_INTERVAL_MS = 100;
/** What one report carries at most: the latest output (the screen shows only the last lines). */
export const LIVE_OUTPUT_MAX_CHARS = 4096;

/**
 * A running call's live output, sent to its run's wire as ToolOutput events: batched (one event per
 * interval at most, so a chatty command cannot flood the wire) and cut to its latest characters.
 * `close` sends what is left and stops the timer.
 */
export class LiveOutput {
  private pending = '';
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly toolCallId: string,
    /** The run's wire; null outside a run (a toolset driven directly): nobody watches. */
    private readonly wire: Wire | null,
  ) {}

  readonly report = (text: string): void => {
    if (this.closed || text === '') return;
    this.pending = (this.pending + text).slice(-LIVE_OUTPUT_MAX_CHARS);
    this.timer ??= setTimeout(() => this.flush(), LIVE_OUTPUT_INTERVAL_MS);
  };

  close(): void {
    this.flush();
    this.closed = true;
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending === '') return;
    const text = this.pending;
    this.pending = '';
    this.wire?.send({ type: 'ToolOutput', payload: { tool_call_id: this.toolCallId, text } });
  }
}
