import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message, ToolCall } from '../../kosong/index.js';
import { Context } from './context.js';

let dir: string;
let file: string;
const open: Context[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-context-'));
  file = join(dir, 'context.jsonl');
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close().catch(() => undefined)));
  await rm(dir, { recursive: true, force: true });
});

async function restore(path = file): Promise<Context> {
  const context = await Context.restore(path);
  open.push(context);
  return context;
}

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
const call = (id: string, args: string): ToolCall => ({
  type: 'function',
  id,
  function: { name: 'ReadFile', arguments: args },
});
const assistantCalling = (...calls: ToolCall[]): Message => ({
  role: 'assistant',
  content: [
    { type: 'think', think: 'let me look', encrypted: 'sig' },
    { type: 'text', text: 'Reading.' },
  ],
  tool_calls: calls,
});
const toolResult = (id: string, text: string): Message => ({
  role: 'tool',
  content: [{ type: 'text', text }],
  tool_call_id: id,
});

async function lines(path = file): Promise<unknown[]> {
  const text = await readFile(path, 'utf8');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
}

describe('Context', () => {
  it('writes Kimi CLI lines and restores the same history', async () => {
    const context = await restore();
    await context.writeSystemPrompt('You are kimi-ts.');
    expect(await context.checkpoint()).toBe(0);
    await context.appendMessages(user('read a.txt'));
    await context.updateUsage(120);
    await context.appendMessages([
      assistantCalling(call('c1', '{"path":"a.txt"}')),
      toolResult('c1', 'hello'),
    ]);
    await context.appendMessages({
      role: 'user',
      content: [
        { type: 'text', text: 'and this' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AA', id: null } },
      ],
    });

    expect(await lines()).toEqual([
      { role: '_system_prompt', content: 'You are kimi-ts.' },
      { role: '_checkpoint', id: 0 },
      { role: 'user', content: 'read a.txt' },
      { role: '_usage', token_count: 120 },
      {
        role: 'assistant',
        content: [
          { type: 'think', think: 'let me look', encrypted: 'sig' },
          { type: 'text', text: 'Reading.' },
        ],
        tool_calls: [
          { type: 'function', id: 'c1', function: { name: 'ReadFile', arguments: '{"path":"a.txt"}' } },
        ],
      },
      { role: 'tool', content: 'hello', tool_call_id: 'c1' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'and this' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AA', id: null } },
        ],
      },
    ]);

    const again = await restore();
    expect(again.history).toEqual(context.history);
    expect(again.systemPrompt).toBe('You are kimi-ts.');
    expect(again.checkpointCount).toBe(1);
    expect(again.tokenCount).toBe(context.tokenCount);
    expect(again.warnings).toEqual([]);
  });

  it('loads lines written by Kimi CLI (spaced JSON, plain-string content)', async () => {
    await writeFile(
      file,
      [
        '{"role": "_system_prompt", "content": "sys"}',
        '{"role": "_checkpoint", "id": 0}',
        '{"role": "user", "content": [{"type": "text", "text": "<system>CHECKPOINT 0</system>"}]}',
        '{"role":"user","content":"hi"}',
        '{"role": "_usage", "token_count": 5}',
        '{"role":"assistant","content":"hello"}',
        '',
      ].join('\n'),
    );
    const context = await restore();
    expect(context.history.map((m) => m.content)).toEqual([
      [{ type: 'text', text: '<system>CHECKPOINT 0</system>' }],
      [{ type: 'text', text: 'hi' }],
      [{ type: 'text', text: 'hello' }],
    ]);
    expect(context.checkpointCount).toBe(1);
    expect(context.tokenCount).toBe(5 + 1);
  });

  it('counts tokens as the last usage plus chars/4 of newer messages', async () => {
    const context = await restore();
    await context.appendMessages(user('x'.repeat(400)));
    expect(context.tokenCount).toBe(100);
    await context.updateUsage(1000);
    expect(context.tokenCount).toBe(1000);
    await context.appendMessages([
      assistantCalling(call('c', 'y'.repeat(30))),
      toolResult('c', 'z'.repeat(42)),
    ]);
    // 'Reading.' (8) + arguments (30) + tool text (42) = 80 chars
    expect(context.pendingTokenEstimate).toBe(20);
    expect(context.tokenCount).toBe(1020);
    expect((await restore()).tokenCount).toBe(1020);
    await expect(context.updateUsage(-1)).rejects.toThrow(RangeError);
  });

  it('adds the CHECKPOINT user message with the checkpoint when asked', async () => {
    const context = await restore();
    await context.checkpoint({ withUserMessage: true });
    await context.checkpoint({ withUserMessage: true });
    expect(await lines()).toEqual([
      { role: '_checkpoint', id: 0 },
      { role: 'user', content: '<system>CHECKPOINT 0</system>' },
      { role: '_checkpoint', id: 1 },
      { role: 'user', content: '<system>CHECKPOINT 1</system>' },
    ]);
  });

  it('reverts to just before a checkpoint, keeping the old file as context_1.jsonl', async () => {
    const context = await restore();
    await context.writeSystemPrompt('sys');
    await context.checkpoint();
    await context.appendMessages(user('one'));
    await context.updateUsage(10);
    await context.checkpoint();
    await context.appendMessages(user('two'));
    await context.updateUsage(20);
    await context.checkpoint();
    await context.appendMessages(user('three'));
    const before = await readFile(file, 'utf8');

    await context.revertTo(1);
    expect(context.history).toEqual([user('one')]);
    expect(context.checkpointCount).toBe(1);
    expect(context.tokenCount).toBe(10);
    expect(await readFile(join(dir, 'context_1.jsonl'), 'utf8')).toBe(before);
    expect(await lines()).toEqual([
      { role: '_system_prompt', content: 'sys' },
      { role: '_checkpoint', id: 0 },
      { role: 'user', content: 'one' },
      { role: '_usage', token_count: 10 },
    ]);

    // Appends now go to the new file, and checkpoint ids continue from the revert point.
    expect(await context.checkpoint()).toBe(1);
    await context.appendMessages(user('dmail'));
    const reloaded = await restore();
    expect(reloaded.history).toEqual([user('one'), user('dmail')]);
    expect(reloaded.checkpointCount).toBe(2);
    expect(await readFile(join(dir, 'context_1.jsonl'), 'utf8')).toBe(before);

    await context.revertTo(0);
    expect(context.history).toEqual([]);
    expect(context.systemPrompt).toBe('sys');
    expect((await readdir(dir)).sort()).toEqual(['context.jsonl', 'context_1.jsonl', 'context_2.jsonl']);
    await expect(context.revertTo(5)).rejects.toThrow('There is no checkpoint with id 5');
  });

  it('clears into a new file that starts with the given system prompt', async () => {
    const context = await restore();
    await context.writeSystemPrompt('old');
    await context.checkpoint();
    await context.appendMessages(user('a'));
    await context.updateUsage(50);
    await context.clear({ systemPrompt: 'new' });
    expect(context.history).toEqual([]);
    expect(context.tokenCount).toBe(0);
    expect(context.checkpointCount).toBe(0);
    expect(await lines()).toEqual([{ role: '_system_prompt', content: 'new' }]);
    expect(await lines(join(dir, 'context_1.jsonl'))).toHaveLength(4);
    expect(await context.checkpoint()).toBe(0);
    await context.clear();
    expect(context.systemPrompt).toBeNull();
    expect(await readFile(file, 'utf8')).toBe('');
  });

  it('puts a system prompt in front of a legacy file atomically, and reverts still work', async () => {
    await writeFile(file, '{"role":"_checkpoint","id":0}\n{"role":"user","content":"a"}\n');
    const context = await restore();
    expect(context.systemPrompt).toBeNull();
    await context.checkpoint();
    await context.appendMessages(user('b'));
    await context.writeSystemPrompt('sys');
    await expect(context.writeSystemPrompt('again')).rejects.toThrow('already has a system prompt');
    expect((await lines())[0]).toEqual({ role: '_system_prompt', content: 'sys' });
    await context.revertTo(1);
    expect(await lines()).toEqual([
      { role: '_system_prompt', content: 'sys' },
      { role: '_checkpoint', id: 0 },
      { role: 'user', content: 'a' },
    ]);
  });

  it('cuts off a torn last line and appends cleanly after it', async () => {
    const full = '{"role":"_system_prompt","content":"s"}\n{"role":"user","content":"a"}\n';
    await writeFile(file, `${full}{"role":"assistant","con`);
    const context = await restore();
    expect(context.history).toEqual([user('a')]);
    expect(context.warnings).toEqual([
      { line: 3, problem: 'cut off: incomplete last line (not valid JSON)' },
    ]);
    expect(await readFile(file, 'utf8')).toBe(full);
    await context.appendMessages(user('b'));
    const again = await restore();
    expect(again.history).toEqual([user('a'), user('b')]);
    expect(again.warnings).toEqual([]);
  });

  it('keeps a complete last record that lost only its newline', async () => {
    await writeFile(file, '{"role":"user","content":"a"}\n{"role":"user","content":"b"}');
    const context = await restore();
    await context.appendMessages(user('c'));
    expect((await restore()).history).toEqual([user('a'), user('b'), user('c')]);
  });

  it('skips malformed lines in the middle with a warning and keeps the rest', async () => {
    await writeFile(
      file,
      [
        '{"role":"user","content":"a"}',
        '{"role":"user","con',
        '{"role":"user","content":"b"}{"role":"user","content":"glued"}',
        '{"role":"wizard","content":"x"}',
        '{"role":"_future_record","x":1}',
        '\u0000\u0000\u0000',
        '{"role":"_checkpoint","id":"zero"}',
        '{"role":"user","content":"c"}',
        '',
      ].join('\n'),
    );
    const context = await restore();
    expect(context.history).toEqual([user('a'), user('c')]);
    expect(context.warnings.map((w) => w.line)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(context.warnings[0]?.problem).toBe('skipped: not valid JSON');
    expect(context.warnings[4]?.problem).toBe('skipped: not valid JSON');
    expect(context.warnings[5]?.problem).toBe('skipped: malformed _checkpoint record');
  });

  it('drops an assistant message whose tool results did not all reach the file', async () => {
    const context = await restore();
    await context.appendMessages(user('q'));
    await context.appendMessages([
      assistantCalling(call('c1', '{}'), call('c2', '{}')),
      toolResult('c1', 'r1'),
    ]);
    // Simulates a crash between the lines of one growth: only one of the two results is there.
    const reloaded = await restore();
    expect(reloaded.history).toEqual([user('q')]);
    expect(reloaded.warnings).toHaveLength(1);
    expect(reloaded.warnings[0]?.problem).toMatch(/incomplete tool-call step/);
    expect(await lines()).toEqual([{ role: 'user', content: 'q' }]);
  });

  it('applies concurrent appends in call order', async () => {
    const context = await restore();
    await Promise.all(Array.from({ length: 50 }, (_, i) => context.appendMessages(user(`m${i}`))));
    const expected = Array.from({ length: 50 }, (_, i) => user(`m${i}`));
    expect(context.history).toEqual(expected);
    expect((await restore()).history).toEqual(expected);
  });

  it('refuses changes after close', async () => {
    const context = await Context.restore(file);
    await context.close();
    await expect(context.appendMessages(user('late'))).rejects.toThrow('closed');
  });
});
