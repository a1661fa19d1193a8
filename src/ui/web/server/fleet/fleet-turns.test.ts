import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { useFleetRedis } from '../../../../../test/support/fleet-redis.js';
import { openTurnQueue } from '../../../../fleet/fleet-queue.js';
import { submitTurn } from '../../../../fleet/submit-turn.js';
import { turnJobId } from '../../../../fleet/turn-job.js';
import { takeNextTurnNumber } from '../../../../fleet/turn-numbers.js';
import { submitPageTurn } from './fleet-turns.js';

const sessionId = randomUUID();

const fleetRedis = useFleetRedis();

const page = (prompt: string) =>
  submitPageTurn(fleetRedis.redis, { sessionId, afterTurn: 0, prompt, defaultWorkDir: '/tmp' });

async function promptOf(turn: number): Promise<string | undefined> {
  const queue = await openTurnQueue(fleetRedis.redis);
  try {
    return (await queue.getJob(turnJobId(sessionId, turn)))?.data?.prompt;
  } finally {
    await queue.close();
  }
}

it('a page prompt racing a cron fire takes its own turn number: neither the prompt nor the fire is lost', async () => {
  // The fire has taken its number from the counter; its job is not queued yet.
  const fireTurn = await takeNextTurnNumber(fleetRedis.redis, sessionId);
  const prompted = await page('from the page');
  await submitTurn(fleetRedis.redis, {
    sessionId,
    turn: fireTurn,
    workDir: '/tmp',
    prompt: '(scheduled prompt 0000abcd)',
    fire: '0000abcd',
    yolo: false,
    afk: false,
  });
  expect(prompted).not.toHaveProperty('refusal');
  const turn = (prompted as { turn: number }).turn;
  expect(turn).not.toBe(fireTurn);
  expect(await promptOf(turn)).toBe('from the page');
  expect(await promptOf(fireTurn)).toBe('(scheduled prompt 0000abcd)');
});

it('two page prompts at once never share a turn: each is queued under its own number, or refused', async () => {
  const results = await Promise.all([page('first'), page('second'), page('third')]);
  const accepted = results.flatMap((result) => ('turn' in result ? [result.turn] : []));
  expect(accepted.length).toBeGreaterThan(0);
  expect(new Set(accepted).size).toBe(accepted.length);
  const prompts = await Promise.all(accepted.map(promptOf));
  expect(new Set(prompts).size).toBe(accepted.length);
});
