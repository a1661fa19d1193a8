import type { ToolReturnValue } from '../../kosong/index.js';
import type { RepeatAssessment } from './repeat-tracker.js';

export interface ReminderSubject {
  toolName: string;
  /** The call's canonical arguments (exact, not whitespace-normalised). */
  canonicalArguments: string;
}

/** The reminder text for a repeat tier (null below the first tier). */
export function repeatReminderText(assessment: RepeatAssessment, subject: ReminderSubject): string | null {
  const cycle =
    assessment.period > 1 ? ` (as part of the repeating cycle ${assessment.cycle.join(' → ')})` : '';
  switch (assessment.tier) {
    case null:
      return null;
    case 'r1':
      return `You just made exactly the same tool call again${cycle}, with the same arguments. Read the result you already have, then change your approach or your arguments rather than repeating the call.`;
    case 'r2':
      return [
        `This exact tool call keeps coming back${cycle} without getting you anywhere:`,
        `- tool: ${subject.toolName}`,
        `- repeated_times: ${assessment.count}`,
        `- arguments: ${subject.canonicalArguments}`,
        'Do not call this tool with these arguments again. Work out why the result is not what you need and take a different route.',
      ].join('\n');
    case 'r3':
    case 'stop':
      return 'You are going round in circles and the calls lead nowhere. Stop making tool calls now: tell the user what you tried, what is blocking you, and wait for their direction.';
  }
}

/** Appends a `<system-reminder>` block to a result's text without changing anything else about it. */
export function appendReminder(value: ToolReturnValue, reminder: string): ToolReturnValue {
  const block = `\n\n<system-reminder>\n${reminder}\n</system-reminder>`;
  if (typeof value.output === 'string') return { ...value, output: value.output + block };
  const parts = [...value.output];
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i]!;
    if (part.type === 'text') {
      parts[i] = { ...part, text: part.text + block };
      return { ...value, output: parts };
    }
  }
  parts.push({ type: 'text', text: block });
  return { ...value, output: parts };
}
