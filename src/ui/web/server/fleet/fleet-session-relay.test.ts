import { afterEach, beforeEach, expect, it } from 'vitest';
import { RedisServer } from '../../../../../test/support/redis-server.js';
import { eventStreamKey } from '../../../../fleet/fleet-keys.js';
import { FleetSessionRelay } from './fleet-session-relay.js';
import { type FleetSource, openFleetSource } from './fleet-source.js';

/** The relay against a real redis-server: paged replay, then live from the last id; nothing twice. */

let server: RedisServer;
let source: FleetSource;
const session = '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9';

beforeEach(async () => {
  server = await RedisServer.start();
  const opened = await openFleetSource(server.url, () => {});
  if ('error' in opened) throw new Error(opened.error);
  source = opened;
});
afterEach(async () => {
  source.close();
  await server.remove();
});

function stepEntry(n: number): string {
  return JSON.stringify({ kind: 'wire', turn: 1, message: { type: 'StepBegin', payload: { n } } });
}

/** A page's socket: every frame it got, and a wait for the frames to satisfy a test. */
function pageSocket() {
  const frames: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  return {
    frames,
    closed: null as { code: number; reason: string } | null,
    send(text: string) {
      frames.push(JSON.parse(text) as Record<string, unknown>);
      for (const wake of waiters.splice(0)) wake();
    },
    close(code: number, reason: string) {
      this.closed = { code, reason };
      for (const wake of waiters.splice(0)) wake();
    },
    async until(done: () => boolean): Promise<void> {
      while (!done()) await new Promise<void>((resolve) => waiters.push(resolve));
    },
  };
}

const steps = (frames: Record<string, unknown>[]) =>
  frames
    .filter((frame) => frame.method === 'event')
    .map((frame) => (frame.params as { payload: { n: number } }).payload.n);

it('replays a stream longer than a page in order, answers, then goes on live from the last id sent', async () => {
  const key = eventStreamKey(session);
  for (let n = 1; n <= 1201; n++) await source.redis.xadd(key, '*', 'e', stepEntry(n));
  // An entry no reader can parse is skipped, not sent and not fatal.
  await source.redis.xadd(key, '*', 'e', '{"kind":"wire","turn":1,"message":{"type":"<script>"}}');
  const socket = pageSocket();
  const relay = new FleetSessionRelay(source, session, '/tmp', socket);
  relay.receive(JSON.stringify({ jsonrpc: '2.0', id: 'r1', method: 'replay', params: {} }));
  await socket.until(() => socket.frames.some((frame) => frame.id === 'r1'));
  const answerAt = socket.frames.findIndex((frame) => frame.id === 'r1');
  expect(socket.frames[answerAt]).toMatchObject({ result: { status: 'finished', events: 1201 } });
  expect(steps(socket.frames.slice(0, answerAt))).toEqual(Array.from({ length: 1201 }, (_, i) => i + 1));
  // Live: entries added after the replay arrive once each.
  await source.redis.xadd(key, '*', 'e', stepEntry(1202));
  await source.redis.xadd(key, '*', 'e', stepEntry(1203));
  await socket.until(() => steps(socket.frames).length === 1203);
  expect(steps(socket.frames).slice(-3)).toEqual([1201, 1202, 1203]);
  relay.detach();
});

it('a second replay (a reconnect) starts over and only one live reader goes on', async () => {
  const key = eventStreamKey(session);
  await source.redis.xadd(key, '*', 'e', stepEntry(1));
  const socket = pageSocket();
  const relay = new FleetSessionRelay(source, session, '/tmp', socket);
  for (const id of ['a', 'b'])
    relay.receive(JSON.stringify({ jsonrpc: '2.0', id, method: 'replay', params: {} }));
  await socket.until(() => socket.frames.some((frame) => frame.id === 'b'));
  const afterB = socket.frames.findIndex((frame) => frame.id === 'b') + 1;
  await source.redis.xadd(key, '*', 'e', stepEntry(2));
  await socket.until(() => steps(socket.frames.slice(afterB)).includes(2));
  // One more entry and its arrival: had two readers run, 2 would have come twice by then.
  await source.redis.xadd(key, '*', 'e', stepEntry(3));
  await socket.until(() => steps(socket.frames.slice(afterB)).includes(3));
  expect(steps(socket.frames.slice(afterB))).toEqual([2, 3]);
  relay.detach();
});

it('methods a fleet session has not are refused by name, cut short; bad params are refused', async () => {
  const socket = pageSocket();
  const relay = new FleetSessionRelay(source, session, '/tmp', socket);
  relay.receive(
    JSON.stringify({ jsonrpc: '2.0', id: 'x', method: `set_plan_mode${'!'.repeat(500)}`, params: {} }),
  );
  relay.receive(JSON.stringify({ jsonrpc: '2.0', id: 'p', method: 'prompt', params: { user_input: 7 } }));
  await socket.until(() => socket.frames.length === 2);
  const byId = Object.fromEntries(socket.frames.map((frame) => [frame.id, frame]));
  expect(byId.x).toMatchObject({ error: { code: -32601 } });
  expect(JSON.stringify(byId.x).length).toBeLessThan(200);
  expect(byId.p).toMatchObject({ error: { code: -32602 } });
  relay.detach();
});
