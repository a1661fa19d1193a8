import type { RefObject } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { AnswerGuard } from './answer-guard.js';

/** A panel's AnswerGuard, and whether the focus is in the panel. */
export interface PanelGuard {
  guard: { readonly current: AnswerGuard };
  hasFocus: boolean;
}

/**
 * The AnswerGuard of a panel, told when the focus comes into the panel, moves inside it and leaves
 * it, and made anew for each request (a request after another starts unarmed). Call it before the
 * hook or effect that first focuses the panel: effects run in order, so the listeners are there.
 */
export function useAnswerGuard(panel: RefObject<HTMLElement>, requestId: string): PanelGuard {
  const guard = useRef(new AnswerGuard());
  const [hasFocus, setHasFocus] = useState(false);
  useEffect(() => {
    const element = panel.current;
    if (!element) return;
    const focusIn = (event: FocusEvent) => {
      const from = event.relatedTarget;
      if (from instanceof Node && element.contains(from)) guard.current.focusMoved();
      else guard.current.focusEntered();
      setHasFocus(true);
    };
    const focusOut = (event: FocusEvent) => {
      const to = event.relatedTarget;
      if (!(to instanceof Node && element.contains(to))) {
        guard.current.focusLeft();
        setHasFocus(false);
      }
    };
    element.addEventListener('focusin', focusIn);
    element.addEventListener('focusout', focusOut);
    return () => {
      element.removeEventListener('focusin', focusIn);
      element.removeEventListener('focusout', focusOut);
    };
  }, []);
  useEffect(() => {
    guard.current = new AnswerGuard();
    // Focus already inside (a request after another): it entered now, for this request's guard.
    if (panel.current?.contains(document.activeElement)) guard.current.focusEntered();
  }, [requestId]);
  return { guard, hasFocus };
}
