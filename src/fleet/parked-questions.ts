import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { QuestionAnswers, QuestionRequestData } from '../wire/requests.js';
import { questionsKey } from './fleet-keys.js';
import type { AskedQuestion } from './question-answers.js';

/**
 * Questions (AskUserQuestion) of parked turns, as approvals are parked: a turn whose model asks is
 * stopped before the step commits, its job parked, the question recorded here; `fleet answer` (or
 * the page) answers it and wakes the job; the worker that takes it redoes the step, and when the
 * same question is asked again it finds the answer here (used once).
 */
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

/** The answers given for this question while its turn was parked (taken: they answer once), or null. */
export async function takeQuestionAnswer(
  redis: Redis,
  sessionId: string,
  request: QuestionRequestData,
): Promise<QuestionAnswers | null> {
  const key = questionKey(request);
  const entry = parse(await redis.hget(questionsKey(sessionId), key));
  if (entry === null || entry.state === 'pending') return null;
  await redis.hdel(questionsKey(sessionId), key);
  return entry.answers;
}

/** Whether the question has been answered (and the answer not yet used). */
export async function isQuestionAnswered(
  redis: Redis,
  sessionId: string,
  request: QuestionRequestData,
): Promise<boolean> {
  const entry = parse(await redis.hget(questionsKey(sessionId), questionKey(request)));
  return entry !== null && entry.state === 'answered';
}

export async function recordPendingQuestion(
  redis: Redis,
  sessionId: string,
  jobId: string,
  request: QuestionRequestData,
): Promise<void> {
  const entry: Entry = {
    state: 'pending',
    jobId,
    agentId: request.agent_id ?? '',
    questions: askedQuestions(request),
    answers: {},
  };
  const key = questionKey(request);
  // One turn of a session runs at a time: a question still pending from an earlier step (the redone
  // step asked another) waits for nothing now, and must not take the answer meant for this one.
  const stale = (await pendingQuestions(redis, sessionId)).filter((pending) => pending.key !== key);
  if (stale.length > 0) await redis.hdel(questionsKey(sessionId), ...stale.map((pending) => pending.key));
  await redis.hset(questionsKey(sessionId), key, JSON.stringify(entry));
}

export async function pendingQuestions(redis: Redis, sessionId: string): Promise<ParkedQuestion[]> {
  const all = await redis.hgetall(questionsKey(sessionId));
  return Object.entries(all).flatMap(([key, text]) => {
    const entry = parse(text);
    return entry?.state === 'pending' ? [{ ...entry, key }] : [];
  });
}

/**
 * Records the answers to one pending question, if it still waits (a second answer finds it answered
 * and changes nothing). Returns whether this call answered it.
 */
const ANSWER_SCRIPT = `
local text = redis.call('HGET', KEYS[1], ARGV[1])
if not text or cjson.decode(text).state ~= 'pending' then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
`;

export async function answerPendingQuestion(
  redis: Redis,
  sessionId: string,
  pending: ParkedQuestion,
  answers: QuestionAnswers,
): Promise<boolean> {
  const { key, ...entry } = pending;
  const answered: Entry = { ...entry, state: 'answered', answers };
  const done = await redis.eval(ANSWER_SCRIPT, 1, questionsKey(sessionId), key, JSON.stringify(answered));
  return done === 1;
}

function parse(text: string | null): Entry | null {
  if (text === null) return null;
  try {
    return entrySchema.parse(JSON.parse(text));
  } catch {
    return null;
  }
}
