import { AsyncLocalStorage } from 'node:async_hooks';
import { afterEach, expect, it, vi } from 'vitest';
import { useFleetRedis } from '../../test/support/fleet-redis.js';
import type { WireMessage } from '../wire/index.js';
import { QuestionRequest } from '../wire/requests.js';
import { withItemEvents } from './item-events.js';
import { readSessionCosts, SessionCostMeter } from './session-cost.js';

const fleetRedis = useFleetRedis();

afterEach(() => {
  vi.restoreAllMocks();
});

const item = { sessionId: 's1', turn: 1, parentJobId: 'p', jobId: 'j', token: undefined };

// Issue #26: an item's run is handed its wire; it enters no AsyncLocalStorage (on Node 20 and 22 one
// that has run makes every later promise of the worker pay its hooks).
it("hands the item's run its wire: its steps are counted, its question dismissed, no AsyncLocalStorage entered", async () => {
  const run = vi.spyOn(AsyncLocalStorage.prototype, 'run');
  const enterWith = vi.spyOn(AsyncLocalStorage.prototype, 'enterWith');
  const cost = new SessionCostMeter(fleetRedis.redis, item.sessionId, { input: 2, output: 10 });
  const answers = await withItemEvents(
    fleetRedis.redis,
    item,
    async ({ wire, approvalSource }) => {
      expect(approvalSource).toBeUndefined();
      if (wire === null) throw new Error('the item run has no wire');
      wire.send({
        type: 'StatusUpdate',
        payload: {
          token_usage: { input_other: 100_000, output: 10_000, input_cache_read: 0, input_cache_creation: 0 },
        },
      } as unknown as WireMessage);
      const question = new QuestionRequest({ id: 'q', tool_call_id: 'c', questions: [] });
      wire.send(question);
      return question.wait();
    },
    cost,
  );
  expect(answers).toEqual({});
  expect((await readSessionCosts(fleetRedis.redis, [item.sessionId])).get(item.sessionId)).toBeCloseTo(
    0.3,
    10,
  );
  expect(run).not.toHaveBeenCalled();
  expect(enterWith).not.toHaveBeenCalled();
});
