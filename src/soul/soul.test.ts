import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { noHooks } from '../hooks/types.js';
import { toolOk } from '../kosong/index.js';
import { ScriptedProvider } from '../kosong/providers/scripted/index.js';
import { KimiToolset } from '../toolset/kimi-toolset.js';
import { testPolicy } from '../toolset/test-support/test-policy.js';
import { defineTool } from '../toolset/tool-definition.js';
import type { WireMessage } from '../wire/message.js';
import { Context } from './context/context.js';
import { DenwaRenji } from './dmail.js';
import { MaxStepsReached } from './errors.js';
import { runSoul } from './run-soul.js';
import { Soul, type SoulOptions, shortenTitle } from './soul.js';
import { DEFAULT_LOOP_CONTROL } from './soul-parts.js';
import type { TurnOutcome } from './turn-outcome.js';

let dir: string;
/** Contexts a test opened: each keeps its file open until closed. */
let opened: Context[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'soul-'));
});
afterEach(async () => {
  await Promise.all(opened.map((context) => context.close()));
  opened = [];
  await rm(dir, { recursive: true, force: true });
});

async function openContext(): Promise<Context> {
  const context = await Context.restore(join(dir, 'context.jsonl'));
  opened.push(context);
  return context;
}

const call = (id: string, name: string, args: unknown) =>
  `tool_call: ${JSON.stringify({ id, name, arguments: JSON.stringify(args) })}`;

async function makeSoul(scripts: string[], overrides: Partial<SoulOptions> = {}) {
  const context = await openContext();
  await context.writeSystemPrompt('You are a test agent.');
  const toolset = new KimiToolset({ policy: testPolicy({ workDir: process.cwd() }) });
  const calls: string[] = [];
  toolset.add(
    defineTool({
      name: 'Echo',
      description: 'Echoes its text.',
      params: z.object({ text: z.string() }),
      effect: 'read-only',
      call: ({ text }) => {
        calls.push(text);
        return toolOk(`echo: ${text}`);
      },
    }),
  );
  const provider = new ScriptedProvider(scripts);
  const soul = new Soul({
    llm: { provider, maxContextSize: 100_000, capabilities: new Set() },
    context,
    toolset,
    systemPrompt: 'You are a test agent.',
    loopControl: DEFAULT_LOOP_CONTROL,
    hooks: noHooks,
    denwaRenji: new DenwaRenji(),
    isRoot: true,
    injections: [],
    sleep: async () => {},
    ...overrides,
  });
  return { soul, context, calls, provider };
}

/** Runs one turn through runSoul and collects what a merged subscriber saw. */
async function runTurn(soul: Soul, input: string, cancel = new AbortController().signal) {
  const seen: WireMessage[] = [];
  let outcome: TurnOutcome | undefined;
  let error: unknown;
  try {
    await runSoul(
      async (signal) => {
        outcome = await soul.run(input, signal);
      },
      async (wire) => {
        for await (const message of wire.subscribe({ merge: true })) seen.push(message);
      },
      cancel,
    );
  } catch (e) {
    error = e;
  }
  return { seen, outcome, error, types: seen.map((m) => m.type) };
}

describe('Soul', () => {
  it('runs steps until the model stops calling tools and grows the context', async () => {
    const { soul, context, calls } = await makeSoul([
      `${call('c1', 'Echo', { text: 'one' })}\nusage: input_other=10 output=5`,
      `${call('c2', 'Echo', { text: 'two' })}`,
      'text: All done.',
    ]);
    const { outcome, types, error } = await runTurn(soul, 'do it');
    expect(error).toBeUndefined();
    expect(outcome).toMatchObject({ stopReason: 'no_tool_calls', stepCount: 3 });
    expect(calls).toEqual(['one', 'two']);
    expect(types[0]).toBe('TurnBegin');
    expect(types.at(-1)).toBe('TurnEnd');
    expect(types.filter((t) => t === 'StepBegin')).toHaveLength(3);
    expect(types.filter((t) => t === 'ToolResult')).toHaveLength(2);
    const roles = context.history.map((m) => m.role);
    expect(roles).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);

    // The file holds the same history.
    const reloaded = await openContext();
    expect(reloaded.history).toEqual(context.history);
  });

  it('stops at max steps with MaxStepsReached and keeps TurnBegin/TurnEnd balanced', async () => {
    const { soul } = await makeSoul(
      [call('a', 'Echo', { text: '1' }), call('b', 'Echo', { text: '2' }), call('c', 'Echo', { text: '3' })],
      { loopControl: { ...DEFAULT_LOOP_CONTROL, maxStepsPerTurn: 2 } },
    );
    const { error, types } = await runTurn(soul, 'loop');
    expect(error).toBeInstanceOf(MaxStepsReached);
    expect(types.filter((t) => t === 'TurnBegin')).toHaveLength(1);
    expect(types.filter((t) => t === 'TurnEnd')).toHaveLength(1);
  });

  it('retries a retryable error with StepRetry and succeeds', async () => {
    const { soul } = await makeSoul(['error: 429 slow down', 'error: 503', 'text: recovered']);
    const { outcome, seen } = await runTurn(soul, 'hi');
    expect(outcome?.stopReason).toBe('no_tool_calls');
    const retries = seen.filter((m) => m.type === 'StepRetry').map((m) => m.payload);
    expect(retries).toMatchObject([
      { n: 1, next_attempt: 2, max_attempts: 3, status_code: 429 },
      { n: 1, next_attempt: 3, max_attempts: 3, status_code: 503 },
    ]);
  });

  it('ends the turn with StepInterrupted after the last attempt', async () => {
    const { soul, context } = await makeSoul(['error: 500', 'error: 500', 'error: 500']);
    const { error, types } = await runTurn(soul, 'hi');
    expect((error as { statusCode?: number }).statusCode).toBe(500);
    expect(types).toContain('StepInterrupted');
    expect(types.at(-1)).toBe('TurnEnd');
    expect(context.history.map((m) => m.role)).toEqual(['user']);
  });

  it('forces the turn to stop when the same call repeats 12 times', async () => {
    const scripts = Array.from({ length: 13 }, (_, i) => call(`c${i}`, 'Echo', { text: 'same' }));
    const { soul } = await makeSoul(scripts);
    const { outcome } = await runTurn(soul, 'loop');
    expect(outcome).toMatchObject({ stopReason: 'tool_call_repeat', stepCount: 12 });
  });

  it('turns a steer into one more step', async () => {
    const { soul, context } = await makeSoul(['text: first answer', 'text: answer to the steer']);
    soul.steer('ignored: stale steer from before the turn');
    const seen: string[] = [];
    let outcome: TurnOutcome | undefined;
    await runSoul(
      async (signal) => {
        outcome = await soul.run('hello', signal);
      },
      async (wire) => {
        for await (const message of wire.subscribe({ merge: true })) {
          seen.push(message.type);
          if (message.type === 'StepBegin' && message.payload.n === 1) soul.steer('also this');
        }
      },
      new AbortController().signal,
    );
    expect(outcome?.stepCount).toBe(2);
    expect(seen).toContain('SteerInput');
    const texts = context.history.filter((m) => m.role === 'user').map((m) => m.content[0]);
    expect(texts).toEqual([
      { type: 'text', text: 'hello' },
      { type: 'text', text: 'also this' },
    ]);
  });

  it('reverts the context to a checkpoint when a D-Mail is sent', async () => {
    const denwaRenji = new DenwaRenji();
    const { soul, context } = await makeSoul(
      [call('c1', 'Echo', { text: 'explore' }), 'text: done after the D-Mail'],
      {
        denwaRenji,
        hasDMailTool: true,
      },
    );
    // The tool of step 1 sends a D-Mail back to checkpoint 0 (before the user message).
    const toolset = soul.parts.toolset as KimiToolset;
    toolset.remove('Echo');
    toolset.add(
      defineTool({
        name: 'Echo',
        description: '',
        params: z.object({ text: z.string() }),
        effect: 'read-only',
        call: () => {
          expect(denwaRenji.send({ message: 'the answer is 42', checkpointId: 1 })).toBeNull();
          return toolOk('sent');
        },
      }),
    );
    const { outcome } = await runTurn(soul, 'question');
    expect(outcome?.stopReason).toBe('no_tool_calls');
    const texts = context.history.map((m) => (m.content[0]?.type === 'text' ? m.content[0].text : ''));
    expect(texts.some((t) => t.includes('the answer is 42'))).toBe(true);
    // The reverted step's assistant message and tool result are gone from the history.
    expect(context.history.some((m) => m.role === 'tool')).toBe(false);
  });

  it('compacts before a step when the context is near its limit', async () => {
    const { soul, context } = await makeSoul(
      [
        'text: answer one',
        'text: answer two',
        'text: <current_focus>summary</current_focus>',
        'text: answer three',
      ],
      {},
    );
    await runTurn(soul, 'first');
    await runTurn(soul, 'second');
    // Shrink the window so the next step must compact first.
    soul.parts.llm = { ...soul.parts.llm!, maxContextSize: 20 };
    soul.parts.loopControl = { ...DEFAULT_LOOP_CONTROL, reservedContextSize: 10 };
    const { types, outcome } = await runTurn(soul, 'third question that is long enough to count');
    expect(outcome?.stopReason).toBe('no_tool_calls');
    expect(types.indexOf('CompactionBegin')).toBeGreaterThan(types.indexOf('StepBegin'));
    expect(types).toContain('CompactionEnd');
    const first = context.history[0]?.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
    expect(first).toContain('summary');
  });

  it('shortens titles at a word boundary', () => {
    expect(shortenTitle('short title', 50)).toBe('short title');
    expect(shortenTitle('a'.repeat(60), 50)).toBe(`${'a'.repeat(47)}...`);
    expect(shortenTitle('word '.repeat(20), 20)).toBe('word word word...');
  });
});
