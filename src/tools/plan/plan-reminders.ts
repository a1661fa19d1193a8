/**
 * The plan-mode reminders injected into the conversation. Each starts with one of two fixed
 * headings: the injection finds earlier reminders in the history by them, so keep them stable.
 */

/** First line of the full and re-entry reminders. */
export const FULL_REMINDER_HEADING =
  'Plan mode is active. Until the user approves a plan, change nothing: no edits to any file except the plan file named below, no commands that modify anything, no tools with side effects. This overrides any other instruction you have.';

/** Start of the short reminder. */
export const SPARSE_REMINDER_HEADING = 'Plan mode is still active (full instructions above).';

export interface ReminderFacts {
  planFilePath: string | null;
  planFileExists: boolean;
  /** No user is present: questions cannot be answered. */
  afk: boolean;
}

/** Whether a piece of text contains a plan-mode reminder. */
export function containsPlanReminder(text: string): boolean {
  return text.includes(FULL_REMINDER_HEADING) || text.includes(SPARSE_REMINDER_HEADING);
}

export function fullPlanReminder({ planFilePath, planFileExists, afk }: ReminderFacts): string {
  const lines = [FULL_REMINDER_HEADING];
  if (planFilePath) {
    lines.push(
      '',
      planFileExists
        ? `Plan file: ${planFilePath} (it exists: read it first, then update it with WriteFile or StrReplaceFile).`
        : `Plan file: ${planFilePath} (not created yet: write it with WriteFile; afterwards WriteFile or StrReplaceFile can change it).`,
      'It is the only file you may change.',
    );
  }
  lines.push(
    '',
    'How to work:',
    '1. Explore: read the relevant code with Glob, Grep and ReadFile.',
    '2. Design: weigh the options and settle on the approach you would recommend.',
    '3. Check: re-read the key files to make sure the plan fits the code as it is.',
    '4. Write: put the plan in the plan file (WriteFile creates it, StrReplaceFile edits it).',
    '5. Submit: call ExitPlanMode so the user can approve the plan.',
    '',
    '## More than one approach',
  );
  if (afk) {
    lines.push(
      'Nobody is present to answer questions (afk mode), so do NOT call AskUserQuestion.',
      'Pick the single approach that is safest and easiest to undo, note the main trade-offs and your assumptions in the plan, and do not leave the choice to the user.',
      '',
      'End your turn by calling ExitPlanMode once the plan file is written. Do not end it any other way.',
    );
  } else {
    lines.push(
      'Offer at most 2-3 approaches that really differ; if one is clearly best, propose only that one.',
      'When the right approach depends on preferences or facts only the user knows, ask with AskUserQuestion before writing the plan.',
      'If the plan does describe several approaches, list them in the `options` parameter of ExitPlanMode so the user can pick one when approving; never submit a plan with several approaches without `options`.',
      '',
      'End your turn with AskUserQuestion (to clarify requirements) or ExitPlanMode (to submit the plan), nothing else.',
      'Do not ask for approval of the plan in text or with AskUserQuestion: the user only sees the plan when you call ExitPlanMode.',
    );
  }
  return lines.join('\n');
}

export function sparsePlanReminder({ planFilePath, afk }: ReminderFacts): string {
  const parts = [
    SPARSE_REMINDER_HEADING,
    planFilePath
      ? `Change nothing except the plan file (${planFilePath}).`
      : 'Change nothing except the plan file.',
    'Create the plan file with WriteFile, then change it with WriteFile or StrReplaceFile.',
  ];
  if (afk) {
    parts.push(
      'Afk mode: do not call AskUserQuestion; choose one approach yourself and end your turn with ExitPlanMode once the plan is written.',
    );
  } else {
    parts.push(
      'Ask with AskUserQuestion when a preference of the user would change the plan; pass several approaches as `options` to ExitPlanMode.',
      'End your turn with AskUserQuestion or ExitPlanMode, and never ask for plan approval in text.',
    );
  }
  return parts.join(' ');
}

/** For a UI switching plan mode back on while a plan from earlier already exists. */
export function reentryPlanReminder({ planFilePath, afk }: ReminderFacts): string {
  const lines = [
    FULL_REMINDER_HEADING,
    '',
    '## Back in plan mode',
    planFilePath
      ? `A plan from an earlier planning session is in ${planFilePath}.`
      : 'A plan from an earlier planning session already exists.',
    'Before anything else:',
    '1. Read that plan file.',
    '2. Compare it with what the user is asking for now.',
    '3. If it is a different task, replace the old plan with a new one; if it is the same task, update the plan.',
    '4. Change the plan file with WriteFile or StrReplaceFile (WriteFile if it does not exist any more).',
  ];
  if (afk) {
    lines.push(
      '5. Afk mode: do not call AskUserQuestion; settle open points with your best judgement.',
      '',
      'End your turn by calling ExitPlanMode once the plan file is up to date.',
    );
  } else {
    lines.push(
      '5. Ask with AskUserQuestion about requirements or preferences that would change the plan.',
      '',
      'End your turn with AskUserQuestion (to clarify) or ExitPlanMode (to submit the plan).',
    );
  }
  return lines.join('\n');
}
