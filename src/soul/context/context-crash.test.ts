import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '../../kosong/index.js';
import { Context } from './context.js';
import { loadContextBytes } from './load-context-file.js';

/**
 * A crash can stop a write at any byte. Cutting a real session's file at every offset must always
 * load a prefix of its history, and never one that ends inside a step's context growth.
 */

let dir: string;
let bytes: Buffer;
let history: readonly Message[];

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-crash-'));
  const file = join(dir, 'full.jsonl');
  const context = await Context.restore(file);
  await context.writeSystemPrompt('You are a careful agent. Ünïcödé 你好');
  await context.checkpoint({ withUserMessage: true });
  await context.appendMessages(user('list the files, then read two'));
  await context.checkpoint();
  await context.updateUsage(321);
  await context.appendMessages([
    {
      role: 'assistant',
      content: [{ type: 'text', text: 'Reading both — 好的.' }],
      tool_calls: [
        { type: 'function', id: 'a', function: { name: 'ReadFile', arguments: '{"path":"a.txt"}' } },
        { type: 'function', id: 'b', function: { name: 'ReadFile', arguments: '{"path":"b.txt"}' } },
      ],
    },
    { role: 'tool', content: [{ type: 'text', text: 'alpha' }], tool_call_id: 'a' },
    { role: 'tool', content: [{ type: 'text', text: 'beta' }], tool_call_id: 'b' },
  ]);
  await context.checkpoint();
  await context.updateUsage(400);
  await context.appendMessages({ role: 'assistant', content: [{ type: 'text', text: 'Done.' }] });
  history = [...context.history];
  await context.close();
  bytes = await readFile(file);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Prefix lengths that do not end between an assistant's tool calls and the last of their results. */
function consistentPrefixLengths(messages: readonly Message[]): Set<number> {
  const allowed = new Set<number>([0]);
  let awaiting = 0;
  messages.forEach((message, index) => {
    if (message.role === 'assistant' && message.tool_calls?.length) awaiting = message.tool_calls.length;
    else if (message.role === 'tool' && awaiting > 0) awaiting--;
    if (awaiting === 0) allowed.add(index + 1);
  });
  return allowed;
}

describe('crash at any byte', () => {
  it('always loads a consistent prefix of the history (in memory, every offset)', () => {
    const allowed = consistentPrefixLengths(history);
    let previous = 0;
    for (let cut = 0; cut <= bytes.length; cut++) {
      const loaded = loadContextBytes(bytes.subarray(0, cut));
      const k = loaded.history.length;
      expect(loaded.history, `cut at byte ${cut}`).toEqual(history.slice(0, k));
      expect(allowed.has(k), `cut at byte ${cut} left ${k} messages`).toBe(true);
      expect(k).toBeGreaterThanOrEqual(previous);
      previous = k;
      expect([null, 'You are a careful agent. Ünïcödé 你好']).toContain(loaded.systemPrompt);
    }
    expect(previous).toBe(history.length);
  });

  it('repairs the file so the session continues cleanly (real files, every offset)', async () => {
    const file = join(dir, 'context.jsonl');
    for (let cut = 0; cut <= bytes.length; cut++) {
      await writeFile(file, bytes.subarray(0, cut));
      const context = await Context.restore(file);
      const k = context.history.length;
      await context.appendMessages(user('after the crash'));
      await context.close();
      const resumed = await Context.restore(file);
      expect(resumed.warnings, `cut at byte ${cut}`).toEqual([]);
      expect(resumed.history).toEqual([...history.slice(0, k), user('after the crash')]);
      await resumed.close();
    }
  });
});
