// Writes a synthetic session of N steps (default 10,000) into `<home>/sessions/<key>/<id>/`, shaped
// like what kimi-ts records: turns of 100 steps, each step a model call streaming text and one tool
// call with its result and token usage; a retry every 250 steps, a compaction every 1,000, a
// subagent's short run every 500. Run alone: `node bench/vis-session.mjs HOME [STEPS]`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export function writeBigSession(home, steps = 10_000, id = 'bench-10k-steps') {
  const dir = join(home, 'sessions', 'benchworkdirkey', id);
  mkdirSync(dir, { recursive: true });
  const lines = [JSON.stringify({ type: 'metadata', protocol_version: '1.10' })];
  const context = [];
  let t = 1_796_000_000;
  const rec = (type, payload) =>
    lines.push(JSON.stringify({ timestamp: +t.toFixed(3), message: { type, payload } }));
  let usage = 0.05;
  for (let i = 0; i < steps; i++) {
    if (i % 100 === 0) {
      if (i > 0) rec('TurnEnd', {});
      rec('TurnBegin', { user_input: `turn ${i / 100 + 1}: keep going with the refactor` });
      context.push(JSON.stringify({ role: 'user', content: `turn ${i / 100 + 1}` }));
    }
    rec('StepBegin', { n: (i % 100) + 1 });
    if (i % 250 === 7) {
      t += 0.2;
      rec('StepRetry', {
        n: (i % 100) + 1,
        next_attempt: 2,
        max_attempts: 3,
        wait_s: 0.5,
        error_type: 'APIStatusError',
        status_code: 529,
      });
      t += 0.5;
    }
    t += 0.3;
    rec('ContentPart', { type: 'text', text: `Step ${i}: looking at src/module-${i % 97}.ts next.` });
    t += 0.2;
    const id = `call_${i}`;
    const args = JSON.stringify({ command: `rg -n "symbol${i % 13}" src/module-${i % 97}.ts` });
    rec('ToolCall', { type: 'function', id, function: { name: 'Shell', arguments: args }, extras: null });
    usage = Math.min(0.95, usage + 0.0008);
    rec('StatusUpdate', {
      context_usage: usage,
      context_tokens: Math.round(usage * 256_000),
      max_context_tokens: 256_000,
      token_usage: {
        input_other: 800 + (i % 50),
        output: 60 + (i % 30),
        input_cache_read: Math.round(usage * 200_000),
        input_cache_creation: 0,
      },
      message_id: `m${i}`,
    });
    t += 0.05 + (i % 17) / 40;
    rec('ToolResult', {
      tool_call_id: id,
      return_value: {
        is_error: i % 41 === 0,
        output: `src/module-${i % 97}.ts:${i % 300}: match`,
        message: '',
        display: [],
        extras: null,
      },
    });
    context.push(
      JSON.stringify({
        role: 'assistant',
        content: `Step ${i}`,
        tool_calls: [{ type: 'function', id, function: { name: 'Shell', arguments: args } }],
      }),
    );
    context.push(JSON.stringify({ role: 'tool', content: 'match', tool_call_id: id }));
    if (i % 500 === 250) {
      const sub = (event) =>
        rec('SubagentEvent', {
          parent_tool_call_id: id,
          agent_id: `agent-${i}`,
          subagent_type: 'explore',
          event,
        });
      sub({ type: 'TurnBegin', payload: { user_input: 'explore' } });
      sub({ type: 'StepBegin', payload: { n: 1 } });
      t += 0.6;
      sub({
        type: 'StatusUpdate',
        payload: {
          token_usage: { input_other: 400, output: 40, input_cache_read: 0, input_cache_creation: 0 },
        },
      });
      sub({ type: 'TurnEnd', payload: {} });
    }
    if (i % 1000 === 999) {
      rec('CompactionBegin', {});
      t += 2;
      rec('CompactionEnd', {});
      usage = 0.08;
    }
  }
  rec('TurnEnd', {});
  writeFileSync(join(dir, 'wire.jsonl'), `${lines.join('\n')}\n`);
  writeFileSync(join(dir, 'context.jsonl'), `${context.join('\n')}\n`);
  writeFileSync(
    join(dir, 'state.json'),
    JSON.stringify({ version: 1, custom_title: `${steps}-step benchmark session` }),
  );
  return { id, dir, events: lines.length - 1 };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const made = writeBigSession(process.argv[2] ?? '.', Number(process.argv[3] ?? 10_000));
  console.log(`${made.dir}: ${made.events} events`);
}
