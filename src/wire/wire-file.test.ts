import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { streamedPartEvent, wireEvent } from './events.js';
import { wireMessageToJSON } from './message-json.js';
import { ApprovalRequest, QuestionRequest } from './requests.js';
import { Wire } from './wire.js';
import { appendWireMessages, parseWireFile, readWireFile, WIRE_PROTOCOL_VERSION } from './wire-file.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-wire-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const text = (t: string) => streamedPartEvent({ type: 'text', text: t });

describe('wire.jsonl', () => {
  test('the recorder writes a header and every merged message; the reader replays them in order', async () => {
    const file = join(dir, 'session', 'wire.jsonl');
    const wire = new Wire({ file });
    const before = Date.now() / 1000;
    wire.send(wireEvent('TurnBegin', { user_input: 'hi' }));
    for (let i = 0; i < 500; i++) wire.send(text('x'));
    wire.send(streamedPartEvent({ type: 'function', id: 'c', function: { name: 'Shell', arguments: null } }));
    wire.send(streamedPartEvent({ type: 'tool_call_part', arguments_part: '{}' }));
    wire.send(wireEvent('TurnEnd', {}));
    wire.shutdown();
    await wire.join();

    const lines = (await readFile(file, 'utf8')).split('\n');
    expect(lines.at(-1)).toBe('');
    expect(JSON.parse(lines[0]!)).toEqual({ type: 'metadata', protocol_version: WIRE_PROTOCOL_VERSION });
    expect(lines).toHaveLength(6); // header, 4 merged messages, trailing ''
    expect(JSON.parse(lines[2]!).message).toEqual({
      type: 'ContentPart',
      payload: { type: 'text', text: 'x'.repeat(500) },
    });

    const contents = await readWireFile(file);
    expect(contents.problems).toEqual([]);
    expect(contents.tornTail).toBe(false);
    expect(contents.protocolVersion).toBe('1.10');
    expect(contents.records.map((r) => r.message.type)).toEqual([
      'TurnBegin',
      'ContentPart',
      'ToolCall',
      'TurnEnd',
    ]);
    expect(contents.records[2]!.message.payload).toEqual({
      type: 'function',
      id: 'c',
      function: { name: 'Shell', arguments: '{}' },
    });
    for (const record of contents.records) {
      expect(record.timestamp).toBeGreaterThanOrEqual(Math.floor(before));
      expect(record.timestamp).toBeLessThanOrEqual(Date.now() / 1000 + 1);
    }
  });

  test('a torn last line loads everything before it and says so; appending starts on a new line', async () => {
    const file = join(dir, 'wire.jsonl');
    const first = new Wire({ file });
    first.send(wireEvent('TurnBegin', { user_input: 'one' }));
    first.send(wireEvent('TurnEnd', {}));
    first.shutdown();
    await first.join();
    await appendFile(file, '{"timestamp": 17.5, "message": {"type": "StepBe');

    const torn = await readWireFile(file);
    expect(torn.records.map((r) => r.message.type)).toEqual(['TurnBegin', 'TurnEnd']);
    expect(torn.tornTail).toBe(true);
    expect(torn.problems).toHaveLength(1);
    expect(torn.problems[0]).toMatchObject({ line: 4 });
    expect(torn.problems[0]!.message).toMatch(/last line is incomplete/);

    const second = new Wire({ file });
    second.send(wireEvent('TurnBegin', { user_input: 'two' }));
    second.shutdown();
    await second.join();
    const text = await readFile(file, 'utf8');
    expect(text.match(/"metadata"/g)).toHaveLength(1); // no second header
    const resumed = await readWireFile(file);
    expect(resumed.tornTail).toBe(false);
    expect(resumed.records.map((r) => r.message.payload)).toEqual([
      { user_input: 'one' },
      {},
      { user_input: 'two' },
    ]);
    expect(resumed.problems).toEqual([{ line: 4, message: 'Not valid JSON.' }]);
  });

  test('a file in Kimi CLI format loads', async () => {
    const contents = await readWireFile(new URL('./fixtures/kimi-cli-wire.jsonl', import.meta.url).pathname);
    expect(contents.problems).toEqual([]);
    expect(contents.protocolVersion).toBe('1.10');
    const types = contents.records.map((r) => r.message.type);
    expect(types).toEqual([
      'TurnBegin',
      'StepBegin',
      'ContentPart',
      'ContentPart',
      'ToolCall',
      'ApprovalRequest',
      'ApprovalResponse',
      'ToolResult',
      'StatusUpdate',
      'StepBegin',
      'StepRetry',
      'ToolCall',
      'ToolResult',
      'HookTriggered',
      'HookResolved',
      'SubagentEvent',
      'Notification',
      'QuestionRequest',
      'ContentPart',
      'TurnEnd',
    ]);
    const approval = contents.records[5]!.message;
    expect(approval).toBeInstanceOf(ApprovalRequest);
    expect(approval.payload).toMatchObject({ display: [{ type: 'shell', language: 'bash', command: 'ls' }] });
    expect(contents.records[17]!.message).toBeInstanceOf(QuestionRequest);
    expect(contents.records[12]!.message.payload).toMatchObject({
      return_value: { display: [{ type: 'diff' }, { type: 'todo' }, { type: 'acp/hide_output', data: {} }] },
    });
    expect(contents.records[0]!.timestamp).toBe(1764543600.125);

    // Writing what was read gives back the same JSON, line for line.
    const original = (await readFile(new URL('./fixtures/kimi-cli-wire.jsonl', import.meta.url), 'utf8'))
      .split('\n')
      .slice(1, -1);
    contents.records.forEach((record, i) => {
      expect(wireMessageToJSON(record.message)).toEqual(JSON.parse(original[i]!).message);
    });
  });

  test('a legacy file without a header, and bad lines in the middle, still load', () => {
    const contents = parseWireFile(
      [
        '{"timestamp": 1, "message": {"type": "TurnBegin", "payload": {"user_input": "x"}}}',
        'garbage',
        '{"timestamp": 2, "message": {"type": "Mystery", "payload": {}}}',
        '{"timestamp": 3, "message": {"type": "ApprovalRequestResolved", "payload": {"request_id": "r", "response": "approve"}}}',
        '',
      ].join('\n'),
    );
    expect(contents.protocolVersion).toBe('1.1');
    expect(contents.records.map((r) => r.message.type)).toEqual(['TurnBegin', 'ApprovalResponse']);
    expect(contents.problems).toEqual([
      { line: 2, message: 'Not valid JSON.' },
      { line: 3, message: 'Unknown wire message type: "Mystery"' },
    ]);
    expect(contents.tornTail).toBe(false);
  });

  test('messages appended outside a run join the same file', async () => {
    const file = join(dir, 'new', 'wire.jsonl');
    await appendWireMessages(file, [wireEvent('StatusUpdate', { plan_mode: true })], 42);
    await appendWireMessages(file, [wireEvent('TurnEnd', {})], 43);
    const contents = await readWireFile(file);
    expect(contents.protocolVersion).toBe(WIRE_PROTOCOL_VERSION);
    expect(contents.records).toEqual([
      {
        timestamp: 42,
        message: { type: 'StatusUpdate', payload: expect.objectContaining({ plan_mode: true }) },
      },
      { timestamp: 43, message: { type: 'TurnEnd', payload: {} } },
    ]);
  });

  test('an empty run writes no file; a missing file reads as empty', async () => {
    const file = join(dir, 'never.jsonl');
    const wire = new Wire({ file });
    wire.shutdown();
    await wire.join();
    await expect(readFile(file)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readWireFile(file)).toMatchObject({ records: [], problems: [], tornTail: false });
  });

  test('a failing recorder reports once and the wire keeps working', async () => {
    const blocker = join(dir, 'not-a-dir');
    await writeFile(blocker, 'x');
    const errors: unknown[] = [];
    let firstError!: () => void;
    const failed = new Promise<void>((resolve) => {
      firstError = resolve;
    });
    const onRecordError = (error: unknown): void => {
      errors.push(error);
      firstError();
    };
    const wire = new Wire({ file: join(blocker, 'wire.jsonl'), onRecordError });
    const ui = wire.subscribe({ merge: true });
    wire.send(wireEvent('TurnBegin', { user_input: 'a' }));
    await failed;
    wire.send(wireEvent('TurnEnd', {}));
    wire.shutdown();
    await wire.join();
    expect(errors).toHaveLength(1);
    expect(ui.takeAll().map((m) => m.type)).toEqual(['TurnBegin', 'TurnEnd']);
  });
});

describe('wire.jsonl from elsewhere', () => {
  test('a line longer than 16 MiB is skipped, named by its number, and the records around it load', async () => {
    const file = join(dir, 'wire.jsonl');
    const record = (t: number) =>
      `${JSON.stringify({ timestamp: t, message: wireMessageToJSON(wireEvent('TurnEnd', {})) })}\n`;
    await writeFile(
      file,
      `${JSON.stringify({ type: 'metadata', protocol_version: WIRE_PROTOCOL_VERSION })}\n`,
    );
    await appendFile(file, record(1));
    await appendFile(file, `{"timestamp":2,"message":"${'x'.repeat(17 * 1024 * 1024)}"}\n`);
    await appendFile(file, record(3));
    const contents = await readWireFile(file);
    expect(contents.records.map((r) => r.timestamp)).toEqual([1, 3]);
    expect(contents.problems).toEqual([
      { line: 3, message: expect.stringMatching(/^Line 3 is \d+ bytes long, more than the 16 MiB/) },
    ]);
    expect(contents.tornTail).toBe(false);
  });
});
