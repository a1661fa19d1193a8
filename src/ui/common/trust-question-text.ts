import { revealInvisibleOneLine } from '../../util/reveal-invisible.js';
import { type TerminalSafe, terminalText as t } from '../../util/sanitize-terminal.js';

/** What a trust question is about: the folder, and what trusting it would put in force. */
export interface TrustQuestionFacts {
  readonly folder: string;
  /** The summary (`2 allow rules in /w/.kimi-ts/permissions.toml`). */
  readonly enables: readonly string[];
  /** Each allow rule as written (`Shell(npm test)`, its reason after ` — `). */
  readonly allowRules: readonly string[];
}

/**
 * What trusting the folder would put in force, one line each: the summary, then every allow rule
 * (`  allow Shell(npm test)`), all of them (issue #24: a rule planted beside the person's own is
 * trusted only if it was seen). Each rule is revealed and kept on its line, so neither an invisible
 * character nor a newline in a pattern can hide a rule or pass for another one. Every front end's
 * trust question shows these lines (the web page from the wire's request).
 */
export function heldBackLines(facts: TrustQuestionFacts): TerminalSafe[] {
  return [
    ...facts.enables.map((item) => revealInvisibleOneLine(item)),
    ...facts.allowRules.map((rule) => t`  allow ${revealInvisibleOneLine(rule)}`),
  ];
}

/**
 * The trust question as one text (the wire's and ACP's `description`, for a client that shows only
 * that): the question, then the lines of `heldBackLines`.
 */
export function trustQuestionText(facts: TrustQuestionFacts): string {
  return [
    `Trust the folder ${revealInvisibleOneLine(facts.folder)}? Its own configuration would be in force:`,
    ...heldBackLines(facts),
  ].join('\n');
}
