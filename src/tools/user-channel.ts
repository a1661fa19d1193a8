/**
 * How tools reach the user: structured questions and the plan to review. Tools receive a
 * `userChannel` at load time and never know what carries it (the app implements it over the Wire).
 */

import type { RunContext } from '../toolset/run-scope.js';

export interface UserQuestionOption {
  label: string;
  description: string;
}

export interface UserQuestion {
  question: string;
  /** A short tag shown with the question. */
  header: string;
  options: UserQuestionOption[];
  multi_select: boolean;
  /** Markdown shown above the options. */
  body: string;
  /** Label and description of the free-text "Other" choice; empty means the front end's default. */
  other_label: string;
  other_description: string;
}

/** Question text → chosen label(s), comma-joined for multi-select. */
export type UserAnswers = Record<string, string>;

/** How asking the user ended. */
export type QuestionOutcome =
  | { status: 'answered'; answers: UserAnswers }
  /** The user closed the question without choosing (or the request ended unanswered). */
  | { status: 'dismissed' }
  /** The connected front end cannot show questions (a wire client without `supports_question`). */
  | { status: 'unsupported' }
  /** No front end is attached to this run: there is nobody to ask. */
  | { status: 'no_user_interface' };

export interface UserChannel {
  /**
   * Asks the user and waits for the answer. When `signal` aborts first, the question is withdrawn
   * (no front end keeps showing it) and the abort reason is thrown.
   */
  ask(
    questions: UserQuestion[],
    call: {
      toolCallId: string;
      signal: AbortSignal;
      /** The run the asking call is part of (the call context's); absent: the caller's current one. */
      run?: RunContext | undefined;
    },
  ): Promise<QuestionOutcome>;
  /** Shows the plan the user is about to review (`run`: as for `ask`). */
  showPlan(plan: { content: string; filePath: string; run?: RunContext | undefined }): void;
}

declare module '../toolset/loading/dependencies.js' {
  interface ToolDependencyMap {
    /** The user, for questions and plan review. */
    userChannel: UserChannel;
  }
}
