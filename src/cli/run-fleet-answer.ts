import type { ParkedQuestion } from '../fleet/parked-questions.js';
import { sanitizeForTerminal } from '../util/sanitize-terminal.js';
import { badSessionArgument, connectFleet } from './fleet-connection.js';
import { USAGE_EXIT_CODE, usageErrorText } from './usage-text.js';

export interface FleetAnswerFlags {
  queue: string;
  answer?: string[] | undefined;
  dismiss?: boolean | undefined;
}

/**
 * `kimi-ts fleet answer SESSION --queue URL --answer CHOICE…|--dismiss`: answers the question a
 * parked turn of the session waits for (submitted with --ask), one `--answer` per question in order
 * (an option's label or number; several, comma-joined, for a multi-select one), and wakes the turn.
 * Without an answer it shows the question and its options.
 */
export async function runFleetAnswer(sessionId: string, flags: FleetAnswerFlags): Promise<number> {
  const choices = flags.answer ?? [];
  if (choices.length > 0 && flags.dismiss) {
    process.stderr.write(usageErrorText('fleet answer takes --answer or --dismiss, not both.'));
    return USAGE_EXIT_CODE;
  }
  const bad = badSessionArgument(sessionId, 'fleet answer');
  if (bad !== null) return bad;
  const connected = await connectFleet(flags.queue, 'fleet', 1);
  if ('code' in connected) return connected.code;
  const { redis } = connected;
  try {
    const [{ answerParkedQuestion }, { parkedQuestions }, { InvalidQuestionAnswer }] = await Promise.all([
      import('../fleet/answer-parked.js'),
      import('../fleet/parked-questions.js'),
      import('../fleet/question-answers.js'),
    ]);
    if (choices.length === 0 && !flags.dismiss) {
      const [pending] = await parkedQuestions.pending(redis, sessionId);
      if (pending === undefined) return noQuestion(sessionId);
      process.stdout.write(showQuestion(pending, sessionId));
      return 0;
    }
    let answered: ParkedQuestion | null;
    try {
      answered = await answerParkedQuestion(
        redis,
        sessionId,
        flags.dismiss ? { kind: 'dismiss' } : { kind: 'choices', choices },
      );
    } catch (error) {
      if (!(error instanceof InvalidQuestionAnswer)) throw error;
      // The options are the model's text: shown terminal-safe.
      process.stderr.write(`kimi-ts fleet answer: ${sanitizeForTerminal(error.message)}\n`);
      return USAGE_EXIT_CODE;
    }
    if (answered === null) return noQuestion(sessionId);
    process.stdout.write(
      flags.dismiss
        ? 'Dismissed the question.\n'
        : `Answered: ${answered.questions.map((item) => sanitizeForTerminal(item.question)).join(' / ')}\n`,
    );
    return 0;
  } finally {
    redis.disconnect();
  }
}

function noQuestion(sessionId: string): number {
  process.stderr.write(`No question is waiting in session ${sessionId}.\n`);
  return 1;
}

/** The waiting question as the person reads it before answering (the model's text, terminal-safe). */
function showQuestion(pending: ParkedQuestion, sessionId: string): string {
  const shown = (text: string) => sanitizeForTerminal(text);
  let out = '';
  pending.questions.forEach((item, index) => {
    out += `Question ${index + 1}${item.multi_select ? ' (one or more)' : ''}: ${shown(item.question)}\n`;
    item.options.forEach((option, n) => {
      out += `  ${n + 1}) ${shown(option.label)}${option.description ? ` — ${shown(option.description)}` : ''}\n`;
    });
  });
  out += `Answer with: kimi-ts fleet answer ${sessionId} --queue URL ${pending.questions.map(() => '--answer N').join(' ')} (or --dismiss)\n`;
  return out;
}
