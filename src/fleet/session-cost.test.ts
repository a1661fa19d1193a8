import { expect, it } from 'vitest';
import { useFleetRedis } from '../../test/support/fleet-redis.js';
import type { WireEvent } from '../wire/events.js';
import type { WireMessage } from '../wire/index.js';
import { sessionCostKey } from './fleet-keys.js';
import { readSessionCosts, SessionCostMeter } from './session-cost.js';

const fleetRedis = useFleetRedis();

const status = (payload: Record<string, unknown>) =>
  ({ type: 'StatusUpdate', payload }) as unknown as WireMessage;
const usage = (input: number, output: number) => ({
  token_usage: { input_other: input, output, input_cache_read: 0, input_cache_creation: 0 },
});

it("counts each step's usage at the worker's price; usage without a price makes the total n/a", async () => {
  const priced = new SessionCostMeter(fleetRedis.redis, 'a', { input: 2, output: 10 });
  priced.offer(status(usage(100_000, 10_000)));
  priced.offer(status({ context_tokens: 5 }));
  priced.offer(status(usage(50_000, 0)));
  await priced.settled();
  const unpriced = new SessionCostMeter(fleetRedis.redis, 'b', null);
  unpriced.offer(status(usage(10, 10)));
  await unpriced.settled();
  const costs = await readSessionCosts(fleetRedis.redis, ['a', 'b', 'never']);
  expect(costs.get('a')).toBeCloseTo(0.4, 10);
  expect(costs.get('b')).toBeNull();
  expect(costs.get('never')).toBeNull();
});

it('a planted total that is no amount reads as n/a, never as a figure', async () => {
  await fleetRedis.redis.hset(sessionCostKey('nan'), 'dollars', 'not-a-number');
  await fleetRedis.redis.hset(sessionCostKey('negative'), 'dollars', '-5');
  await fleetRedis.redis.hset(sessionCostKey('huge'), 'dollars', '1e400');
  await fleetRedis.redis.set(sessionCostKey('wrong-type'), 'x');
  const costs = await readSessionCosts(fleetRedis.redis, ['nan', 'negative', 'huge', 'wrong-type']);
  expect([...costs.values()]).toEqual([null, null, null, null]);
});

it("counts a subagent's steps (a SubagentEvent's StatusUpdate, nested too) at the price given; not its context", async () => {
  const { wireEvent } = await import('../wire/events.js');
  const step = (input: number, output: number) =>
    wireEvent('StatusUpdate', {
      context_usage: 0.5,
      token_usage: { input_other: input, output, input_cache_read: 0, input_cache_creation: 0 },
    });
  const under = (event: WireEvent) =>
    wireEvent('SubagentEvent', { parent_tool_call_id: 'c1', agent_id: 'a1', subagent_type: 'coder', event });
  const meter = new SessionCostMeter(fleetRedis.redis, 's', { input: 2, output: 10 });
  meter.offer(step(100_000, 0)); // the session's own step: $0.2
  meter.offer(under(step(0, 10_000))); // its subagent's: $0.1
  meter.offer(under(under(step(50_000, 0)))); // that subagent's own subagent: $0.1
  meter.offer(under(wireEvent('StatusUpdate', { context_tokens: 90_000 })));
  await meter.settled();
  expect((await readSessionCosts(fleetRedis.redis, ['s'])).get('s')).toBeCloseTo(0.4, 10);
});
