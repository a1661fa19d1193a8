// The message stream the wire benchmarks feed (wire.bench.mjs, wire-json.bench.mjs): shaped like a
// model's, mostly single text and think fragments, with a tool call of 20 argument fragments and a
// status update every 500.

/** At least `count` wire messages, as plain objects. */
export function modelShapedMessages(count) {
  const messages = [];
  for (let i = 0; messages.length < count; i++) {
    if (i % 500 === 499) {
      messages.push({
        type: 'ToolCall',
        payload: { type: 'function', id: `call_${i}`, function: { name: 'Shell', arguments: null } },
      });
      for (let j = 0; j < 20; j++)
        messages.push({ type: 'ToolCallPart', payload: { type: 'tool_call_part', arguments_part: '{"a":' } });
      messages.push({ type: 'StatusUpdate', payload: { context_usage: 0.1, message_id: `m${i}` } });
    } else if (i % 100 < 10) {
      messages.push({ type: 'ContentPart', payload: { type: 'think', think: 'hmm ' } });
    } else {
      messages.push({ type: 'ContentPart', payload: { type: 'text', text: 'tok ' } });
    }
  }
  return messages;
}
