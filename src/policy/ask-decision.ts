import type { DisplayBlock } from '../kosong/index.js';
import type { EffectFacts } from './effect-facts.js';
import type { DecisionStep, PolicyDecision, ToolQuestion } from './policy-decision.js';
import { type QuestionText, questionText } from './policy-questions.js';

type Ask = Extract<PolicyDecision, { decision: 'ask' }>;

/**
 * A decision to ask a person, whose words (`description`) and blocks (`display`) are made when first
 * read: most of the cost of a decision that asks (issue 24), paid only by a caller that shows the
 * question. They are getters of the class (an object literal with getters costs more to make than
 * the text does), so read them by name: a spread (`{ ...decision }`) does not copy them; JSON does.
 */
export class AskDecision implements Ask {
  readonly decision = 'ask';
  readonly #base: ToolQuestion;
  readonly #facts: readonly EffectFacts[];
  readonly #note: string | undefined;
  #text: QuestionText | undefined;

  constructor(
    readonly step: DecisionStep,
    readonly action: string,
    /** Names a secret file or a private address: asked even in yolo, never remembered. */
    readonly secret: boolean,
    /** Asked even when yolo would approve on its own. */
    readonly evenIfAutoApproving: boolean,
    /** A plain approval also covers the action for the rest of the session (SearchWeb). */
    readonly rememberApproval: boolean,
    question: { base: ToolQuestion; facts: readonly EffectFacts[]; note: string | undefined },
  ) {
    this.#base = question.base;
    this.#facts = question.facts;
    this.#note = question.note;
  }

  get description(): string {
    return this.#shown().description;
  }

  get display(): readonly DisplayBlock[] {
    return this.#shown().display;
  }

  /** The decision as it reads, every field in the order the eager one had. */
  toJSON(): Ask {
    return {
      decision: this.decision,
      step: this.step,
      action: this.action,
      description: this.description,
      display: this.display,
      secret: this.secret,
      evenIfAutoApproving: this.evenIfAutoApproving,
      rememberApproval: this.rememberApproval,
    };
  }

  #shown(): QuestionText {
    this.#text ??= questionText(this.#base, this.#facts, this.#note);
    return this.#text;
  }
}
