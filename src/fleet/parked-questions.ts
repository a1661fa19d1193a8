import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { QuestionAnswers, QuestionRequestData } from '../wire/requests.js';
import { questionsKey } from './fleet-keys.js';
import { ParkedRequests } from './parked-requests.js';
import type { AskedQuestion } from './question-answers.js';

const askedSchema = z.strictObject({
  question: z.string(),
  multi_select: z.boolean(),
  options: z.array(z.strictObject({ label: z.string(), description: z.string() })),
});
const entrySchema = z.strictObject({
  state: z.enum(['pending', 'answered']),
  jobId: z.string(),
  /** The subagent that asks, or '' for the main agent. */
  agentId: z.string(),
  questions: z.array(askedSchema),
  answers: z.record(z.string(), z.string()),
});
type Entry = z.infer<typeof entrySchema>;
export type ParkedQuestion = Entry & { key: string };

/** What the question asks, not its request id (a redone step asks again with a new one). */
export function askedQuestions(request: QuestionRequestData): AskedQuestion[] {
  return request.questions.map((item) => ({
    question: item.question,
    multi_select: item.multi_select,
    options: item.options.map(({ label, description }) => ({ label, description })),
  }));
}

export function questionKey(request: QuestionRequestData): string {
  return createHash('sha256')
    .update(JSON.stringify([request.agent_id ?? '', askedQuestions(request)]))
    .digest('hex')
    .slice(0, 32);
}

/** Questions (AskUserQuestion) of parked turns (`fleet answer`, the page): answered with the choices. */
export const parkedQuestions = new ParkedRequests<QuestionRequestData, Entry, QuestionAnswers>({
  hashKey: questionsKey,
  entry: entrySchema,
  keyOf: questionKey,
  pendingEntry: (jobId, request) => ({
    state: 'pending',
    jobId,
    agentId: request.agent_id ?? '',
    questions: askedQuestions(request),
    answers: {},
  }),
  answerOf: (entry) => (entry.state === 'answered' ? entry.answers : null),
  answeredEntry: (entry, answers) => ({ ...entry, state: 'answered', answers }),
  oneAtATime: true,
});
