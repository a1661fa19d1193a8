import { AsyncLocalStorage } from 'node:async_hooks';
import type { ToolCall } from '../kosong/index.js';

/** What code running inside a tool call (the tool, its approval requests, hooks) can know about it. */
export interface ToolCallScope {
  readonly toolCall: ToolCall;
  /** Aborted when the call is cancelled. */
  readonly signal: AbortSignal;
  /** Approval actions already granted for this call, so a tool asking again is answered at once. */
  readonly approvedActions: Set<string>;
}

const storage = new AsyncLocalStorage<ToolCallScope>();

/** Runs `fn` as part of the given tool call; everything it awaits sees the same scope. */
export function runInToolCall<T>(scope: ToolCallScope, fn: () => T): T {
  return storage.run(scope, fn);
}

/** The scope of the tool call the caller runs inside, if any. */
export function currentToolCallScope(): ToolCallScope | undefined {
  return storage.getStore();
}

/** The tool call the caller runs inside, if any. */
export function currentToolCall(): ToolCall | undefined {
  return storage.getStore()?.toolCall;
}
