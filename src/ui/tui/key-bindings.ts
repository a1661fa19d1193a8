import { type KeyId, matchesKey } from '@mariozechner/pi-tui';

/**
 * One key of the TUI's own: what it does, and when it applies. A key whose binding does not apply
 * goes on to the prompt editor (or the panel that has the keys).
 */
export interface KeyBinding {
  key: KeyId;
  /** When the key is the TUI's (a turn runs, no panel shows, the prompt is empty, ...). */
  applies: () => boolean;
  run: () => void;
}

/** Runs the first binding of `data` that applies; returns whether one did (the key is consumed). */
export function dispatchKey(bindings: readonly KeyBinding[], data: string): boolean {
  const binding = bindings.find((b) => matchesKey(data, b.key) && b.applies());
  if (!binding) return false;
  binding.run();
  return true;
}
