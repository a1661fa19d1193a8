import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Message } from '../../kosong/index.js';
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
  context.setWriteFence(async () => {
    if (!held) throw new Error('lease lost');
  });
  await context.appendMessages(user('still held'));
  held = false;
  await expect(context.appendMessages(user('after the lease was lost'))).rejects.toThrow('lease lost');
  await expect(context.checkpoint()).rejects.toThrow('lease lost');
  await expect(context.revertTo(0)).rejects.toThrow('lease lost');
  const after = await readFile(file, 'utf8');
  expect(after.startsWith(before)).toBe(true);
  expect(after).toContain('still held');
  expect(after).not.toContain('after the lease');
  expect(context.history.map((m) => m.content)).toHaveLength(2);
  // Closing is not a change: a worker that lost its lease still closes its file.
  await context.close();
  const reopened = await Context.restore(file);
  expect(reopened.history).toHaveLength(2);
  await reopened.close();
});
