import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Message } from '../../kosong/index.js';
import type { SessionWrite } from '../../util/write-fence.js';
import { Context } from './context.js';

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-context-fence-'));
  file = join(dir, 'context.jsonl');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });

it('a change the write fence refuses leaves the file and the history as they were', async () => {
  const context = await Context.restore(file);
  await context.appendMessages(user('committed'));
  const before = await readFile(file, 'utf8');
  let held = true;
  const seen: SessionWrite[] = [];
  context.setWriteFence(async (write) => {
    if (!held) throw new Error('lease lost');
    seen.push(write);
  });
  await context.appendMessages(user('still held'));
  const mark = await context.checkpoint();
  held = false;
  await expect(context.appendMessages(user('after the lease was lost'))).rejects.toThrow('lease lost');
  await expect(context.checkpoint()).rejects.toThrow('lease lost');
  await expect(context.revertTo(mark)).rejects.toThrow('lease lost');
  const after = await readFile(file, 'utf8');
  expect(after.startsWith(before)).toBe(true);
  expect(after).toContain('still held');
  expect(after).not.toContain('after the lease');
  expect(context.history.map((m) => m.content)).toHaveLength(2);
  // The fence saw each change it let through, as the bytes that reached the file.
  expect(seen.map((w) => w.op)).toEqual(['append', 'append']);
  expect(before + seen.map((w) => w.text).join('')).toBe(after);
  // Closing is not a change: a worker that lost its lease still closes its file.
  await context.close();
  const reopened = await Context.restore(file);
  expect(reopened.history).toHaveLength(2);
  await reopened.close();
});

it('a rewrite (revert, clear) shows the fence the whole new content', async () => {
  const context = await Context.restore(file);
  const seen: SessionWrite[] = [];
  context.setWriteFence(async (write) => {
    seen.push(write);
  });
  await context.writeSystemPrompt('you are kimi');
  await context.appendMessages(user('one'));
  const mark = await context.checkpoint();
  await context.appendMessages(user('two'));
  await context.revertTo(mark);
  const reverted = seen.at(-1);
  expect(reverted).toEqual({ file: 'context', op: 'replace', text: await readFile(file, 'utf8') });
  await context.clear({ systemPrompt: 'fresh' });
  expect(seen.at(-1)).toEqual({ file: 'context', op: 'replace', text: await readFile(file, 'utf8') });
  await context.close();
});
