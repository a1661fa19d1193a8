import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { RedisServer } from '../../test/support/redis-server.js';
import type { Message } from '../kosong/index.js';
import { lockSession } from '../session/session-lock.js';
import { Context } from '../soul/context/context.js';
import { jobLockKey, sessionHolderKey, storedPartKey, storedSizesKey } from './fleet-keys.js';
import { parseQueueUrl } from './queue-address.js';
import { connectRedis } from './redis-connection.js';
import {
  commitLocalChanges,
  loadSessionFromStore,
  type SessionPartFiles,
  StoredSessionInvalid,
  storeFence,
} from './session-mirror.js';
import {
  commitSessionWrite,
  MAX_COMMIT_BYTES,
  readStoredSession,
  StoreFenced,
  StoreLimitExceeded,
} from './session-store.js';
import { turnJobId } from './turn-job.js';
import { LeaseLost, TurnLease } from './turn-lease.js';

let server: RedisServer;
let redis: Redis;
let dir: string;
const session = '3f2e1d0c-9b8a-4765-8432-10fedcba9876';
const job1 = turnJobId(session, 1);
const holder = { jobId: job1, token: 'token-a' };

beforeEach(async () => {
  server = await RedisServer.start();
  redis = await connectRedis(parseQueueUrl(server.url), { graceMs: 1000 });
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-session-store-'));
  await redis.set(sessionHolderKey(session), job1);
  await redis.set(jobLockKey(job1), 'token-a');
});
afterEach(async () => {
  redis.disconnect();
  await server.remove();
  await rm(dir, { recursive: true, force: true });
});

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
const filesIn = (home: string): SessionPartFiles => ({
  context: join(home, 's', 'context.jsonl'),
  wire: join(home, 's', 'wire.jsonl'),
  state: join(home, 's', 'state.json'),
});

it('commits only while the session is held by this job with this token, in one script', async () => {
  await commitSessionWrite(redis, session, holder, { file: 'context', op: 'append', text: 'a\n' });
  await commitSessionWrite(redis, session, holder, { file: 'context', op: 'append', text: 'b\n' });
  // Another worker took the turn over: BullMQ gave the job's lock a new token.
  await redis.set(jobLockKey(job1), 'token-b');
  await expect(
    commitSessionWrite(redis, session, holder, { file: 'context', op: 'append', text: 'late\n' }),
  ).rejects.toBeInstanceOf(StoreFenced);
  // The next turn holds the session now: the old job's token alone is not enough either.
  await redis.set(jobLockKey(job1), 'token-a');
  await redis.set(sessionHolderKey(session), turnJobId(session, 2));
  await expect(
    commitSessionWrite(redis, session, holder, { file: 'state', op: 'replace', text: '{}' }),
  ).rejects.toBeInstanceOf(StoreFenced);
  expect(await readStoredSession(redis, session)).toEqual({ context: 'a\nb\n', wire: null, state: null });
});

it('a replace makes the part its new content; sizes are tracked per part', async () => {
  await commitSessionWrite(redis, session, holder, { file: 'context', op: 'append', text: 'a\nb\n' });
  await commitSessionWrite(redis, session, holder, { file: 'context', op: 'replace', text: 'a\n' });
  await commitSessionWrite(redis, session, holder, { file: 'state', op: 'replace', text: '{"x":1}' });
  await commitSessionWrite(redis, session, holder, { file: 'state', op: 'replace', text: '{"x":2}' });
  expect(await readStoredSession(redis, session)).toEqual({ context: 'a\n', wire: null, state: '{"x":2}' });
  expect(await redis.hgetall(storedSizesKey(session))).toEqual({ context: '2', state: '7' });
  expect(await redis.llen(storedPartKey(session, 'state'))).toBe(1);
});

it('a huge write gets a clear error and leaves the store as it was', async () => {
  await commitSessionWrite(redis, session, holder, { file: 'state', op: 'replace', text: '{}' });
  // Over the part's bound (state.json: 1 MiB), checked inside the script.
  const bigState = `{"x":"${'y'.repeat(2 * 1024 * 1024)}"}`;
  await expect(
    commitSessionWrite(redis, session, holder, { file: 'state', op: 'replace', text: bigState }),
  ).rejects.toThrow(/state would grow past the session store's limit of 1048576 bytes: not committed/);
  // Over the bound of one commit: refused before anything is sent.
  const huge = 'z'.repeat(MAX_COMMIT_BYTES + 1);
  await expect(
    commitSessionWrite(redis, session, holder, { file: 'context', op: 'append', text: huge }),
  ).rejects.toBeInstanceOf(StoreLimitExceeded);
  expect(await readStoredSession(redis, session)).toEqual({ context: null, wire: null, state: '{}' });
});

it("a context fenced by the store: worker B's copy, loaded from the store, is worker A's history", async () => {
  const lease = new TurnLease(redis, session, job1, 'token-a');
  const a = filesIn(join(dir, 'home-a'));
  const b = filesIn(join(dir, 'home-b'));
  await loadSessionFromStore(redis, session, a);
  await mkdir(join(dir, 'home-a', 's'), { recursive: true });
  const contextA = await Context.restore(a.context);
  contextA.setWriteFence(storeFence(redis, session, holder, lease));
  await contextA.writeSystemPrompt('you are kimi');
  await contextA.appendMessages(user('turn one'));
  await contextA.checkpoint();
  // A pauses; B takes the turn over (a new token for the job's lock) and loads the session.
  await redis.set(jobLockKey(job1), 'token-b');
  await expect(contextA.appendMessages(user('written after the takeover'))).rejects.toBeInstanceOf(LeaseLost);
  expect(lease.lost).toBe(true);
  await contextA.close();
  await loadSessionFromStore(redis, session, b);
  const stored = (await readStoredSession(redis, session)).context;
  expect(await readFile(b.context, 'utf8')).toBe(stored);
  expect(await readFile(a.context, 'utf8')).toBe(stored);
  expect(stored).not.toContain('after the takeover');
  const contextB = await Context.restore(b.context);
  expect(contextB.systemPrompt).toBe('you are kimi');
  expect(contextB.history).toHaveLength(1);
  await contextB.close();
});

it('a copy that is behind is replaced by the store; one that is up to date is left alone', async () => {
  const files = filesIn(dir);
  const line = `${JSON.stringify({ role: 'user', content: 'hi' })}\n`;
  await commitSessionWrite(redis, session, holder, { file: 'context', op: 'append', text: line });
  await commitSessionWrite(redis, session, holder, { file: 'state', op: 'replace', text: '{"todos":[]}' });
  await loadSessionFromStore(redis, session, files);
  expect(await readFile(files.context, 'utf8')).toBe(line);
  const before = await stat(files.context);
  await loadSessionFromStore(redis, session, files);
  expect((await stat(files.context)).ino).toBe(before.ino);
  // Behind: the store grew on another machine.
  await commitSessionWrite(redis, session, holder, { file: 'context', op: 'append', text: line });
  await loadSessionFromStore(redis, session, files);
  expect(await readFile(files.context, 'utf8')).toBe(line + line);
  expect(await readFile(files.state, 'utf8')).toBe('{"todos":[]}');
});

it('hostile store contents are refused with a clear error, and the local copy is kept', async () => {
  const files = filesIn(dir);
  const good = `${JSON.stringify({ role: 'user', content: 'mine' })}\n`;
  await commitSessionWrite(redis, session, holder, { file: 'context', op: 'append', text: good });
  await loadSessionFromStore(redis, session, files);
  const hostile: [string, string, string | RegExp][] = [
    ['context', 'not json at all\n', /context\.jsonl is not valid: line 1/],
    [
      'context',
      `${JSON.stringify({ role: 'mallory', content: 1 })}\n`,
      /context\.jsonl is not valid: line 1/,
    ],
    [
      'context',
      `${JSON.stringify({ role: 'user', content: 'x'.repeat(17 * 1024 * 1024) })}\n`,
      /line 1 is longer than/,
    ],
    [
      'wire',
      '{"type":"metadata","protocol_version":"1.10"}\n{"timestamp":1,"message":{"type":"Nope"}}\n',
      /wire\.jsonl is not valid: line 2/,
    ],
    ['wire', '{"type":"metadata","protocol_version":"1.10"}\n{"timestamp":1,', /wire\.jsonl is not valid/],
    ['state', '[1,2,3]', /state\.json is not valid: not a JSON object/],
  ];
  for (const [part, text, error] of hostile) {
    // Written straight into Redis: whoever can write to it is as untrusted as a file from elsewhere.
    await redis.del(storedPartKey(session, part as 'context'));
    await redis.rpush(storedPartKey(session, part as 'context'), text);
    await redis.hset(storedSizesKey(session), part, Buffer.byteLength(text));
    const loading = loadSessionFromStore(redis, session, files);
    await expect(loading).rejects.toBeInstanceOf(StoredSessionInvalid);
    await expect(loadSessionFromStore(redis, session, files)).rejects.toThrow(error);
    expect(await readFile(files.context, 'utf8')).toBe(good);
    await redis.del(storedPartKey(session, part as 'context'));
    await redis.hdel(storedSizesKey(session), part);
    if (part === 'context') {
      await redis.rpush(storedPartKey(session, 'context'), good);
      await redis.hset(storedSizesKey(session), 'context', Buffer.byteLength(good));
    }
  }
});

it('a session a local process holds (not a fleet worker) is not overwritten under it', async () => {
  const files = filesIn(dir);
  await mkdir(join(dir, 's'), { recursive: true });
  const local = `${JSON.stringify({ role: 'user', content: 'typed at a terminal' })}\n`;
  await writeFile(files.context, local);
  const lock = await lockSession(session, join(dir, 's'));
  try {
    await commitSessionWrite(redis, session, holder, { file: 'context', op: 'replace', text: '' });
    await loadSessionFromStore(redis, session, files);
    expect(await readFile(files.context, 'utf8')).toBe(local);
  } finally {
    await lock.release();
  }
  // Once it is closed, the store's commit is the truth again.
  await loadSessionFromStore(redis, session, files);
  expect(await readFile(files.context, 'utf8')).toBe('');
});

it('after opening, what opening wrote is committed; parts the store has already are left alone', async () => {
  const files = filesIn(dir);
  await mkdir(join(dir, 's'), { recursive: true });
  const lease = new TurnLease(redis, session, job1, 'token-a');
  const writes: string[] = [];
  const inner = storeFence(redis, session, holder, lease);
  const fence = async (write: Parameters<typeof inner>[0]) => {
    writes.push(`${write.file}:${write.op}`);
    await inner(write);
  };
  // A new session: opening wrote its system prompt and its first state.
  const prompt = `${JSON.stringify({ role: '_system_prompt', content: 'you are kimi' })}\n`;
  await writeFile(files.context, prompt);
  await writeFile(files.state, '{"title":"a"}');
  await commitLocalChanges(redis, session, files, fence);
  expect(writes).toEqual(['context:replace', 'state:replace']);
  expect(await readStoredSession(redis, session)).toEqual({
    context: prompt,
    wire: null,
    state: '{"title":"a"}',
  });
  // Nothing new: nothing committed. A state of the same size but another content: committed.
  writes.length = 0;
  await commitLocalChanges(redis, session, files, fence);
  expect(writes).toEqual([]);
  await writeFile(files.state, '{"title":"b"}');
  await commitLocalChanges(redis, session, files, fence);
  expect(writes).toEqual(['state:replace']);
  expect((await readStoredSession(redis, session, ['state'])).state).toBe('{"title":"b"}');
  expect((await readStoredSession(redis, session, ['state'])).context).toBeNull();
});
