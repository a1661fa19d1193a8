import { type HeldBack, heldBackLines } from '../../util/held-back-lines.js';
import { revealInvisibleOneLine } from '../../util/reveal-invisible.js';

/**
 * What a trust question is about: the folder, and what trusting it would put in force (the summary,
 * `2 allow rules in /w/.kimi-ts/permissions.toml`, and each allow rule as written, `Shell(npm test)`,
 * its reason after ` — `).
 */
export interface TrustQuestionFacts extends HeldBack {
  readonly folder: string;
}

/**
 * The trust question as one text (the wire's and ACP's `description`, for a client that shows only
 * that): the question, then the lines of `heldBackLines` (app/held-back-rules.ts).
 */
export function trustQuestionText(facts: TrustQuestionFacts): string {
  return [
    `Trust the folder ${revealInvisibleOneLine(facts.folder)}? Its own configuration would be in force:`,
    ...heldBackLines(facts),
  ].join('\n');
}
