import { expect, it } from 'vitest';
import { useFleetRedis } from '../../test/support/fleet-redis.js';
import { BackgroundTaskKeeper } from '../app/extensions/background-task-keeper.js';
import { parkedWaitKey } from './fleet-keys.js';
import { ParkedWaits } from './parked-waits.js';
import { TurnCancels } from './turn-cancels.js';

const fleetRedis = useFleetRedis();
const session = '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9';

const waitsOf = (worker: string) =>
  new ParkedWaits(fleetRedis.redis, worker, new BackgroundTaskKeeper(), new TurnCancels(), 30_000, () => {});

it('a turn goes back to the live worker that keeps its tasks; a planted claim without an expiry holds nothing', async () => {
  const { redis } = fleetRedis;
  const here = waitsOf('worker-a');
  expect(await here.heldElsewhere(session)).toBe(false);
  await redis.set(parkedWaitKey(session), 'worker-b', 'PX', 30_000);
  expect(await here.heldElsewhere(session)).toBe(true);
  expect(await waitsOf('worker-b').heldElsewhere(session)).toBe(false);
  // Planted with no expiry: it would park the session's turns for ever.
  await redis.set(parkedWaitKey(session), 'worker-b');
  expect(await here.heldElsewhere(session)).toBe(false);
});
