/**
 * The tool calls of a session whose `tool_call` update has gone out to the editor. Updates a tool
 * sends while it runs (a terminal to show) must follow that first notice, or the editor would not
 * know the call they name; the turn's update stream and the tool run concurrently, so the tool waits
 * here for the stream to catch up.
 */
export class ToolCallAnnouncements {
  private readonly seen = new Set<string>();
  private readonly waiters = new Map<string, (() => void)[]>();

  mark(toolCallId: string): void {
    this.seen.add(toolCallId);
    const waiting = this.waiters.get(toolCallId);
    this.waiters.delete(toolCallId);
    for (const wake of waiting ?? []) wake();
  }

  /** Resolves once `toolCallId` is marked; rejects with the signal's reason if it aborts first. */
  wait(toolCallId: string, signal: AbortSignal): Promise<void> {
    if (this.seen.has(toolCallId)) return Promise.resolve();
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const list = this.waiters.get(toolCallId);
        list?.splice(list.indexOf(wake), 1);
        reject(signal.reason);
      };
      const wake = () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      const list = this.waiters.get(toolCallId) ?? [];
      list.push(wake);
      this.waiters.set(toolCallId, list);
    });
  }

  /** After a turn: forgets its calls and releases anyone still waiting (nothing more will be announced). */
  endTurn(): void {
    const waiting = [...this.waiters.values()].flat();
    this.waiters.clear();
    this.seen.clear();
    for (const wake of waiting) wake();
  }
}
