import { describe, expect, test } from 'vitest';
import { wireEvent } from '../../wire/events.js';
import type { WireMessage } from '../../wire/message.js';
import { Wire } from '../../wire/wire.js';
import { type OutputFormat, PrintFormatter } from './print-formatter.js';

/** What a merged subscriber of a real Wire receives for `sent`. */
async function merged(sent: readonly WireMessage[]): Promise<WireMessage[]> {
  const wire = new Wire();
  const subscription = wire.subscribe({ merge: true });
  for (const message of sent) wire.send(message);
  wire.shutdown();
  const out: WireMessage[] = [];
  for await (const batch of subscription.batches()) out.push(...batch);
  return out;
}

function print(format: OutputFormat, messages: readonly WireMessage[]): { out: string; progress: string } {
  const written = { out: '', progress: '' };
  const formatter = new PrintFormatter(
    format,
    { out: (text) => (written.out += text), progress: (text) => (written.progress += text) },
    { finalMessageOnly: false, workDir: '/w' },
  );
  for (const message of messages) formatter.handle(message);
  formatter.finish();
  return written;
}

const subagentText = wireEvent('SubagentEvent', {
  parent_tool_call_id: 'call_a',
  agent_id: 'a1',
  subagent_type: 'coder',
  event: wireEvent('ContentPart', { type: 'text', text: 'inner' }),
});

describe('PrintFormatter on the merged queue', () => {
  test('whole parts make one assistant message, then the tool message', async () => {
    const messages = await merged([
      wireEvent('StepBegin', { n: 1 }),
      wireEvent('ContentPart', { type: 'text', text: 'Let me ' }),
      wireEvent('ContentPart', { type: 'text', text: 'look.' }),
      wireEvent('ToolCall', {
        type: 'function',
        id: 'call_a',
        function: { name: 'Shell', arguments: '{"com' },
      }),
      wireEvent('ToolCallPart', { type: 'tool_call_part', arguments_part: 'mand":"ls"}' }),
      // The step's status update: its model call succeeded.
      wireEvent('StatusUpdate', { token_usage: null, context_tokens: 10 }),
      wireEvent('ToolResult', {
        tool_call_id: 'call_a',
        return_value: { is_error: false, output: 'a.txt', message: '', display: [] },
      }),
      wireEvent('TurnEnd', {}),
    ]);
    expect(print('stream-json', messages).out.split('\n')).toEqual([
      JSON.stringify({
        role: 'assistant',
        content: 'Let me look.',
        tool_calls: [
          { type: 'function', id: 'call_a', function: { name: 'Shell', arguments: '{"command":"ls"}' } },
        ],
      }),
      JSON.stringify({ role: 'tool', content: 'a.txt', tool_call_id: 'call_a' }),
      '',
    ]);
    expect(print('text', messages)).toEqual({ out: 'Let me look.\n', progress: '• Shell ls\n' });
  });

  test('pieces of a part split by an event it skips still join, and the Wire’s objects stay as sent', async () => {
    const messages = await merged([
      wireEvent('StepBegin', { n: 1 }),
      wireEvent('ContentPart', { type: 'text', text: 'Hel' }),
      subagentText,
      wireEvent('ContentPart', { type: 'text', text: 'lo' }),
      wireEvent('ToolCall', {
        type: 'function',
        id: 'call_b',
        function: { name: 'Shell', arguments: '{"command":' },
      }),
      subagentText,
      wireEvent('ToolCallPart', { type: 'tool_call_part', arguments_part: '"pwd"}' }),
      // The step's status update: its model call succeeded.
      wireEvent('StatusUpdate', { token_usage: null, context_tokens: 10 }),
      wireEvent('TurnEnd', {}),
    ]);
    const before = JSON.stringify(messages);
    expect(print('stream-json', messages).out).toBe(
      `${JSON.stringify({
        role: 'assistant',
        content: 'Hello',
        tool_calls: [
          { type: 'function', id: 'call_b', function: { name: 'Shell', arguments: '{"command":"pwd"}' } },
        ],
      })}\n`,
    );
    expect(print('text', messages)).toEqual({ out: 'Hello\n', progress: '• Shell pwd\n' });
    expect(JSON.stringify(messages)).toBe(before);
  });

  test('a failed attempt’s unfinished part is not printed', async () => {
    const messages = await merged([
      wireEvent('StepBegin', { n: 1 }),
      wireEvent('ContentPart', { type: 'text', text: 'half an ans' }),
      wireEvent('StepRetry', {
        n: 1,
        next_attempt: 2,
        max_attempts: 3,
        wait_s: 0,
        error_type: 'APIConnectionError',
      }),
      wireEvent('ContentPart', { type: 'text', text: 'The answer.' }),
      // The step's status update: its model call succeeded.
      wireEvent('StatusUpdate', { token_usage: null, context_tokens: 10 }),
      wireEvent('TurnEnd', {}),
    ]);
    expect(print('text', messages).out).toBe('The answer.\n');
    expect(print('stream-json', messages).out).toBe(
      `${JSON.stringify({ role: 'assistant', content: 'The answer.' })}\n`,
    );
  });
});
