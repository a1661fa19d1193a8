import type { RefObject } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ARM_DELAY_MS, isTypingElsewhere } from './answer-guard.js';

/**
 * A panel that asks the person (a question, the folder's trust): whether it is armed yet, and its
 * first focus. Each new request starts unarmed — a click or an Enter in its first moments was aimed
 * at what was there before — and takes the focus (`focusSelector` inside the panel) unless the
 * person is typing in a field elsewhere, where their next keys would otherwise answer it.
 */
export function useArmedPanel(
  panel: RefObject<HTMLElement>,
  requestId: string,
  focusSelector: string,
): boolean {
  const [armed, setArmed] = useState(false);
  useEffect(() => {
    setArmed(false);
    if (!isTypingElsewhere(document, panel.current))
      panel.current?.querySelector<HTMLElement>(focusSelector)?.focus();
    const timer = setTimeout(() => setArmed(true), ARM_DELAY_MS);
    return () => clearTimeout(timer);
  }, [requestId]);
  return armed;
}
