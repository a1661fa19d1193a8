import { revealInvisibleOneLine } from './reveal-invisible.js';
import { type TerminalSafe, terminalText as t } from './sanitize-terminal.js';

/** What an untrusted folder holds back: the summary lines and every allow rule as written (app/held-back-rules.ts). */
export interface HeldBack {
  readonly enables: readonly string[];
  readonly allowRules: readonly string[];
}

/**
 * What trusting the folder would put in force, one line each: the summary, then every allow rule
 * (`  allow Shell(npm test)`), all of them (issue #24: a rule planted beside the person's own is
 * trusted only if it was seen). Each rule is revealed and kept on its line, so neither an invisible
 * character nor a newline in a pattern can hide a rule or pass for another one. Every front end's
 * trust question shows these lines (the web page from the wire's request), and print mode's warning
 * (app/session-warning.ts) the rules', as it cannot ask. Here, below both, for both to use.
 */
export function heldBackLines(held: HeldBack): TerminalSafe[] {
  return [
    ...held.enables.map((item) => revealInvisibleOneLine(item)),
    ...held.allowRules.map((rule) => t`  allow ${revealInvisibleOneLine(rule)}`),
  ];
}
