import { describe, expect, it } from 'vitest';
import type { StreamedPart } from '../../kosong/message.js';
import { toolError, toolOk } from '../../kosong/tool.js';
import { streamedPartEvent, wireEvent } from '../../wire/events.js';
import type { WireMessage } from '../../wire/message.js';
import { type OutputFormat, PrintFormatter } from './print-formatter.js';

const call = (id: string): StreamedPart => ({
  type: 'function',
  id,
  function: { name: 'Glob', arguments: '{"pattern": "*"}' },
});
const text = (t: string) => streamedPartEvent({ type: 'text', text: t });
const status = () => wireEvent('StatusUpdate', { token_usage: null, context_tokens: 10 });
const result = (id: string, ok = true) =>
  wireEvent('ToolResult', { tool_call_id: id, return_value: ok ? toolOk('found') : toolError('bad', 'Bad') });
const retry = () =>
  wireEvent('StepRetry', {
    n: 1,
    next_attempt: 2,
    max_attempts: 3,
    wait_s: 0.3,
    error_type: 'APIConnectionError',
    status_code: null,
  });

function print(format: OutputFormat, messages: WireMessage[]) {
  const out: string[] = [];
  const progress: string[] = [];
  const formatter = new PrintFormatter(
    format,
    { out: (t) => out.push(t), progress: (t) => progress.push(t) },
    { finalMessageOnly: false, workDir: '/w' },
  );
  for (const message of messages) formatter.handle(message);
  formatter.finish();
  return { out: out.join(''), progress: progress.join('') };
}

const shapes = (jsonl: string) =>
  jsonl
    .trim()
    .split('\n')
    .map((line) => {
      const m = JSON.parse(line) as { role: string; tool_call_id?: string; tool_calls?: { id: string }[] };
      return m.role === 'tool'
        ? `tool ${m.tool_call_id}`
        : `${m.role}[${(m.tool_calls ?? []).map((c) => c.id)}]`;
    });

describe('PrintFormatter', () => {
  it('drops a retried attempt whole, with the results of its calls', () => {
    const messages = [
      wireEvent('StepBegin', { n: 1 }),
      text('appending'),
      streamedPartEvent(call('old')),
      result('old'),
      retry(),
      text('appending'),
      streamedPartEvent(call('new')),
      status(),
      result('new'),
      wireEvent('TurnEnd', {}),
    ];
    expect(shapes(print('stream-json', messages).out)).toEqual(['assistant[new]', 'tool new']);
    const textMode = print('text', messages);
    expect(textMode.out).toBe('appending\n');
    expect(textMode.progress).toBe('[retrying after APIConnectionError: attempt 2 of 3]\n• Glob *\n');
  });

  it('holds results that arrive mid-stream until the assistant message, then writes them in call order', () => {
    const { out } = print('stream-json', [
      wireEvent('StepBegin', { n: 1 }),
      streamedPartEvent(call('c0')),
      result('c0', false),
      streamedPartEvent(call('c1')),
      streamedPartEvent(call('c2')),
      result('c2'),
      status(),
      result('c1'),
      wireEvent('StepBegin', { n: 2 }),
      text('Done.'),
      status(),
      wireEvent('TurnEnd', {}),
    ]);
    expect(shapes(out)).toEqual(['assistant[c0,c1,c2]', 'tool c0', 'tool c1', 'tool c2', 'assistant[]']);
  });

  it('drops an attempt whose step failed, and writes content sent outside a step as it is', () => {
    const { out } = print('text', [
      text('Prompt blocked by hook.'),
      wireEvent('TurnEnd', {}),
      wireEvent('StepBegin', { n: 1 }),
      text('never confirmed'),
      wireEvent('StepInterrupted', {}),
      wireEvent('TurnEnd', {}),
    ]);
    expect(out).toBe('Prompt blocked by hook.\n');
  });
});
