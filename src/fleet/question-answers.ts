import type { QuestionAnswers, QuestionItem } from '../wire/requests.js';

/** What a parked question keeps of each question: enough to show it and to check an answer. */
export type AskedQuestion = Pick<QuestionItem, 'question' | 'multi_select'> & {
  options: { label: string; description: string }[];
};

/** An answer that is not one of the question's options (or answers a question not asked). */
export class InvalidQuestionAnswer extends Error {
  override name = 'InvalidQuestionAnswer';
}

/** How a multi-select answer joins its labels (the page's and the terminal's way). */
const MULTI_JOIN = ', ';

/**
 * The answers to `questions` from what someone typed, one entry per question in order: each an
 * option's label or its number (1-based); a multi-select question takes several, joined by commas.
 * Free text is not an answer in the fleet: whoever answers picks one of the options the model gave.
 */
export function answersFromChoices(
  questions: readonly AskedQuestion[],
  choices: readonly string[],
): QuestionAnswers {
  if (choices.length !== questions.length)
    throw new InvalidQuestionAnswer(
      `${questions.length} question${questions.length === 1 ? '' : 's'} wait${questions.length === 1 ? 's' : ''} for an answer: give one --answer for each, in order (${choices.length} given).`,
    );
  const answers: QuestionAnswers = {};
  questions.forEach((item, index) => {
    const choice = choices[index] ?? '';
    const labels = splitChoice(item, choice).map((part) => labelOf(item, part, index));
    if (labels.length > 1 && !item.multi_select)
      throw new InvalidQuestionAnswer(`Question ${index + 1} takes one option, not ${labels.length}.`);
    answers[item.question] = [...new Set(labels)].join(MULTI_JOIN);
  });
  return answers;
}

/**
 * Checks answers as a page sends them (question text → label(s), comma-joined for multi-select):
 * every key a question asked, every label one of its options. Nothing answered is a dismissal.
 */
export function checkAnswers(questions: readonly AskedQuestion[], answers: QuestionAnswers): QuestionAnswers {
  const checked: QuestionAnswers = {};
  for (const [question, value] of Object.entries(answers)) {
    const index = questions.findIndex((item) => item.question === question);
    const item = questions[index];
    if (item === undefined)
      throw new InvalidQuestionAnswer('The answer is for a question that was not asked.');
    checked[question] = answersFromChoices([item], [value])[question] ?? '';
  }
  return checked;
}

/** A label as given whole (it may hold a comma), else the parts of a multi-select choice. */
function splitChoice(item: AskedQuestion, choice: string): string[] {
  const whole = choice.trim();
  if (item.options.some((option) => option.label === whole) || !item.multi_select) return [whole];
  return whole.split(',').map((part) => part.trim());
}

function labelOf(item: AskedQuestion, choice: string, index: number): string {
  const exact = item.options.find((option) => option.label === choice);
  if (exact !== undefined) return exact.label;
  if (/^[1-9]\d*$/.test(choice)) {
    const numbered = item.options[Number(choice) - 1];
    if (numbered !== undefined) return numbered.label;
  }
  const known = item.options.map((option, n) => `${n + 1}) ${JSON.stringify(option.label)}`).join(', ');
  throw new InvalidQuestionAnswer(
    `${JSON.stringify(choice.slice(0, 80))} is not an option of question ${index + 1}: pick one of ${known}.`,
  );
}
