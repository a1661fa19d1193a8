import { expect, it } from 'vitest';
import { useFleetRedis } from '../../test/support/fleet-redis.js';
import { answerParkedQuestion, answerParkedTurn } from './answer-parked.js';
import { approvalsKey, questionsKey } from './fleet-keys.js';
import { openTurnQueue } from './fleet-queue.js';
import { parkedApprovals } from './parked-approvals.js';
import { InvalidQuestionAnswer } from './question-answers.js';
import { turnJobId } from './turn-job.js';

/** Answering parked questions against a real redis-server: records are untrusted (anyone with Redis). */

const session = '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9';
const other = '66666666-7777-4888-9999-aaaaaaaaaaaa';

const fleetRedis = useFleetRedis();

function pending(jobId: string): string {
  return JSON.stringify({
    state: 'pending',
    jobId,
    agentId: '',
    questions: [{ question: 'Which?', multi_select: false, options: [{ label: 'A', description: '' }] }],
    answers: {},
  });
}

async function delayedTurn(sessionId: string): Promise<string> {
  const queue = await openTurnQueue(fleetRedis.redis);
  const jobId = turnJobId(sessionId, 1);
  await queue.add('turn', {}, { jobId, delay: 3_600_000 });
  await queue.close();
  return jobId;
}

it("a record naming another session's job answers, but wakes only this session's jobs", async () => {
  const foreign = await delayedTurn(other);
  await fleetRedis.redis.hset(questionsKey(session), 'k1', pending(foreign));
  expect(
    await answerParkedQuestion(fleetRedis.redis, session, { kind: 'choices', choices: ['A'] }),
  ).not.toBeNull();
  const queue = await openTurnQueue(fleetRedis.redis);
  expect(await (await queue.getJob(foreign))?.getState()).toBe('delayed');
  await queue.close();
});

it("this session's parked job is woken; a second answer finds nothing waiting", async () => {
  const ours = await delayedTurn(session);
  await fleetRedis.redis.hset(questionsKey(session), 'k1', pending(ours));
  await expect(
    answerParkedQuestion(fleetRedis.redis, session, { kind: 'choices', choices: ['B'] }),
  ).rejects.toThrow(InvalidQuestionAnswer);
  expect(
    await answerParkedQuestion(fleetRedis.redis, session, { kind: 'answers', answers: { Which: 'A' } }).catch(
      (e) => e,
    ),
  ).toBeInstanceOf(InvalidQuestionAnswer);
  expect(await answerParkedQuestion(fleetRedis.redis, session, { kind: 'dismiss' })).not.toBeNull();
  const queue = await openTurnQueue(fleetRedis.redis);
  expect(await (await queue.getJob(ours))?.getState()).toBe('waiting');
  await queue.close();
  expect(await answerParkedQuestion(fleetRedis.redis, session, { kind: 'dismiss' })).toBeNull();
});

it('an unreadable record is no question', async () => {
  await fleetRedis.redis.hset(questionsKey(session), 'k1', '{"state":"pending","questions":"<script>"}');
  expect(await answerParkedQuestion(fleetRedis.redis, session, { kind: 'dismiss' })).toBeNull();
});

it('approvals park the same way: answered once, taken once, an unreadable record answers nothing', async () => {
  const ours = await delayedTurn(session);
  const asked = { sender: 'Shell', action: 'run command', description: 'echo hi' };
  await parkedApprovals.record(fleetRedis.redis, session, ours, asked);
  await fleetRedis.redis.hset(approvalsKey(session), 'planted', '{"state":"pending","jobId":1}');
  expect(await parkedApprovals.take(fleetRedis.redis, session, asked)).toBeNull();
  const answered = await answerParkedTurn(fleetRedis.redis, session, 'reject');
  expect(answered.map((entry) => entry.action)).toEqual(['run command']);
  expect(await answerParkedTurn(fleetRedis.redis, session, 'approve')).toEqual([]);
  const queue = await openTurnQueue(fleetRedis.redis);
  expect(await (await queue.getJob(ours))?.getState()).toBe('waiting');
  await queue.close();
  expect(await parkedApprovals.isAnswered(fleetRedis.redis, session, asked)).toBe(true);
  expect(await parkedApprovals.take(fleetRedis.redis, session, asked)).toBe('reject');
  expect(await parkedApprovals.take(fleetRedis.redis, session, asked)).toBeNull();
});
