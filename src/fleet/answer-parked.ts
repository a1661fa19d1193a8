import type { Redis } from 'ioredis';
import type { QuestionAnswers } from '../wire/requests.js';
import { openTurnQueue } from './fleet-queue.js';
import { type ParkedApproval, parkedApprovals } from './parked-approvals.js';
import { type ParkedQuestion, parkedQuestions } from './parked-questions.js';
import { answersFromChoices, checkAnswers } from './question-answers.js';
import { isSwarmItemJobOf } from './swarm-item-job.js';
import { isTurnJobOf } from './turn-job.js';

/**
 * Answers every approval a parked turn of the session waits for, and wakes its job (promoted: any
 * worker takes it). `fleet approve` and the web page in queue mode both answer through here.
 * Returns what was answered (nothing: no approval was waiting).
 */
export async function answerParkedTurn(
  redis: Redis,
  sessionId: string,
  answer: 'approve' | 'reject',
): Promise<ParkedApproval[]> {
  const answered: ParkedApproval[] = [];
  for (const pending of await parkedApprovals.pending(redis, sessionId))
    if (await parkedApprovals.answer(redis, sessionId, pending.key, answer)) answered.push(pending);
  await wakeParkedJobs(redis, sessionId, answered);
  return answered;
}

/**
 * What answers a parked question: one choice per question (`fleet answer --answer`), the answers as
 * a page sends them (question text → label(s)), or a dismissal (the model hears nobody chose).
 */
export type QuestionReply =
  | { kind: 'choices'; choices: string[] }
  | { kind: 'answers'; answers: QuestionAnswers }
  | { kind: 'dismiss' };

/**
 * Answers the question a parked turn of the session waits for (one turn runs at a time, so one
 * question waits), checked against its options (InvalidQuestionAnswer otherwise), and wakes its job.
 * Returns the question answered, or null when none waits.
 */
export async function answerParkedQuestion(
  redis: Redis,
  sessionId: string,
  reply: QuestionReply,
): Promise<ParkedQuestion | null> {
  const [pending] = await parkedQuestions.pending(redis, sessionId);
  if (pending === undefined) return null;
  const answers = answersOf(pending, reply);
  if (!(await parkedQuestions.answer(redis, sessionId, pending.key, answers))) return null;
  await wakeParkedJobs(redis, sessionId, [pending]);
  return pending;
}

function answersOf(pending: ParkedQuestion, reply: QuestionReply): QuestionAnswers {
  switch (reply.kind) {
    case 'choices':
      return answersFromChoices(pending.questions, reply.choices);
    case 'answers':
      return checkAnswers(pending.questions, reply.answers);
    case 'dismiss':
      return {};
  }
}

/**
 * Promotes the parked jobs that waited for these answers: any worker takes them now. Only turn jobs
 * and swarm items of this session: a record planted with another job's id wakes nothing else.
 */
async function wakeParkedJobs(
  redis: Redis,
  sessionId: string,
  answered: readonly { jobId: string }[],
): Promise<void> {
  const ours = answered.filter(
    (entry) => isTurnJobOf(entry.jobId, sessionId) || isSwarmItemJobOf(entry.jobId, sessionId),
  );
  if (ours.length === 0) return;
  const queue = await openTurnQueue(redis);
  try {
    for (const jobId of new Set(ours.map((entry) => entry.jobId))) {
      const job = await queue.getJob(jobId);
      if (job && (await job.isDelayed())) await job.promote();
    }
  } finally {
    await queue.close();
  }
}
