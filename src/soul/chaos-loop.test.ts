import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { noHooks } from '../hooks/types.js';
import { ChatProviderError } from '../kosong/errors.js';
import { extractText, type Message, type StreamedPart } from '../kosong/message.js';
import type { ChatProvider, StreamedMessage } from '../kosong/provider.js';
import { type ChaosFault, ChaosProvider, SeededRandom } from '../kosong/providers/chaos/index.js';
import { toolOk } from '../kosong/tool.js';
import { Approval } from '../toolset/approval/approval.js';
import { KimiToolset } from '../toolset/kimi-toolset.js';
import { withTestPolicy } from '../toolset/test-support/test-policy.js';
import { defineTool } from '../toolset/tool-definition.js';
import { Context } from './context/context.js';
import { DenwaRenji } from './dmail.js';
import { exitCodeFor, RunCancelled } from './errors.js';
import { runSoul } from './run-soul.js';
import { Soul } from './soul.js';
import { DEFAULT_LOOP_CONTROL } from './soul-parts.js';

/**
 * The chaos test: many short sessions against a model that fails the way real ones do — streams
 * cut after text, after a call, in the middle of arguments, stalls, HTTP errors, dropped
 * connections, empty answers — plus users who cancel at random moments. Faults come from a seeded
 * schedule (CHAOS_SEED replays one), at least MIN_FAULTS of them per run of the suite. Every session
 * must end the way print mode documents (exit 0, 1 or 75), leave a context.jsonl that loads and in
 * which every tool message follows the assistant message that called it, and run each side effect
 * at most once — and only for a call the context shows.
 */
const MIN_FAULTS = 500;
const SEED = Number(process.env.CHAOS_SEED ?? 20_261_201);
const RATES: Partial<Record<ChaosFault, number>> = {
  cut_after_text: 0.07,
  cut_after_call: 0.07,
  cut_mid_arguments: 0.07,
  stall: 0.05,
  cut: 0.04,
  '500': 0.03,
  '429': 0.02,
  connection: 0.03,
  empty: 0.02,
};
/** Share of sessions in which the user cancels the first turn at a random moment. */
const CANCEL_SHARE = 0.2;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chaos-loop-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/**
 * The real model behind the chaos: it answers from the history, like a model does, so a retried
 * step gets the same answer. "go" runs three steps (two with a side effect); anything else, one.
 */
function conversationModel(session: number): ChatProvider {
  const answer = (history: readonly Message[]): StreamedPart[] => {
    const lastUser = history.findLastIndex((m) => m.role === 'user');
    const prompt = lastUser >= 0 ? extractText(history[lastUser]!) : '';
    if (!prompt.endsWith('go')) return [text('Still '), text('here.')];
    const step = history.slice(lastUser).filter((m) => m.role === 'assistant').length + 1;
    const op = `s${session}-step${step}`;
    switch (step) {
      case 1:
        return [
          text('Looking '),
          text('first.'),
          ...call(`${op}-a`, 'Append', { op }),
          ...call(`${op}-b`, 'Look', {}),
        ];
      case 2:
        return [text('Now '), text('the second.'), ...call(`${op}-a`, 'Append', { op })];
      default:
        return [text('All '), text('done.')];
    }
  };
  return {
    name: 'conversation',
    modelName: 'conversation',
    thinkingEffort: null,
    withThinking() {
      return this;
    },
    async generate({ history }): Promise<StreamedMessage> {
      const parts = answer(history);
      return {
        id: null,
        usage: { input_other: 10, output: 5, input_cache_read: 0, input_cache_creation: 0 },
        async *[Symbol.asyncIterator]() {
          for (const part of parts) yield structuredClone(part);
        },
      };
    },
  };
}

const text = (t: string): StreamedPart => ({ type: 'text', text: t });

/** A call streamed as a header and two argument fragments. */
function call(id: string, name: string, args: unknown): StreamedPart[] {
  const json = JSON.stringify(args);
  const a = Math.floor(json.length / 3);
  const b = Math.floor((2 * json.length) / 3);
  return [
    { type: 'function', id, function: { name, arguments: json.slice(0, a) } },
    { type: 'tool_call_part', arguments_part: json.slice(a, b) },
    { type: 'tool_call_part', arguments_part: json.slice(b) },
  ];
}

interface SessionReport {
  codes: number[];
  faults: ChaosFault[];
}

async function runSession(session: number, random: SeededRandom): Promise<SessionReport> {
  const file = join(dir, `context-${session}.jsonl`);
  const effects = join(dir, `effects-${session}.log`);
  const context = await Context.restore(file);
  await context.writeSystemPrompt('You are a test agent.');
  const toolset = new KimiToolset(withTestPolicy({ approval: new Approval({ state: { yolo: true } }) }));
  toolset.add(
    defineTool({
      name: 'Append',
      description: 'Appends its op to the effects log (the side effect).',
      params: z.object({ op: z.string() }),
      effect: 'writes-files',
      call: async ({ op }) => {
        await appendFile(effects, `${op}\n`);
        return toolOk(`appended ${op}`);
      },
    }),
  );
  toolset.add(
    defineTool({
      name: 'Look',
      description: 'Reads nothing.',
      params: z.object({}),
      effect: 'read-only',
      call: () => toolOk('looked'),
    }),
  );
  const chaos = new ChaosProvider(conversationModel(session), {
    seed: Math.floor(random.next() * 2 ** 31),
    rates: RATES,
    maxPartsBeforeCut: 8,
  });
  const soul = new Soul({
    llm: { provider: chaos, maxContextSize: 100_000, capabilities: new Set() },
    context,
    toolset,
    systemPrompt: 'You are a test agent.',
    loopControl: { ...DEFAULT_LOOP_CONTROL, maxRetriesPerStep: 3, stallTimeoutMs: 25 },
    hooks: noHooks,
    denwaRenji: new DenwaRenji(),
    isRoot: true,
    injections: [],
    sleep: async () => {},
  });
  const cancelAt = random.next() < CANCEL_SHARE ? 1 + Math.floor(random.next() * 30) : null;
  const codes: number[] = [];
  for (const [turn, prompt] of ['go', 'are you still there?'].entries()) {
    const cancel = new AbortController();
    let seen = 0;
    const code = await runSoul(
      (signal) => soul.run(prompt, signal).then(() => undefined),
      async (wire) => {
        for await (const _ of wire.subscribe({ merge: false })) {
          if (turn === 0 && ++seen === cancelAt) cancel.abort();
        }
      },
      cancel.signal,
    ).then(
      () => 0,
      (error: unknown) => {
        if (error instanceof RunCancelled) return 1;
        // Every fault injected here is retryable: a turn that fails ran out of attempts (75).
        expect(error, `session ${session}: ${String(error)}`).toBeInstanceOf(ChatProviderError);
        return exitCodeFor(error);
      },
    );
    codes.push(code);
  }
  await context.close();
  await checkContextFile(session, file, effects);
  return { codes, faults: chaos.injected.map((o) => o.fault).filter((f): f is ChaosFault => f !== null) };
}

/** The context loads, its tool messages are paired, and every side effect ran once, for a recorded call. */
async function checkContextFile(session: number, file: string, effects: string): Promise<void> {
  const reloaded = await Context.restore(file);
  const history = reloaded.history;
  await reloaded.close();
  const where = `session ${session}`;
  for (let i = 0; i < history.length; i++) {
    const message = history[i]!;
    if (message.role === 'tool') {
      expect.fail(
        `${where}: tool message ${message.tool_call_id} at ${i} does not follow its assistant call`,
      );
    }
    if (message.role !== 'assistant' || !message.tool_calls?.length) continue;
    const ids = message.tool_calls.map((c) => c.id);
    const following = history.slice(i + 1, i + 1 + ids.length);
    expect(
      following.map((m) => (m.role === 'tool' ? m.tool_call_id : m.role)),
      `${where}: the calls of the assistant message at ${i}`,
    ).toEqual(ids);
    i += ids.length;
  }
  const recordedOps = new Set(
    history.flatMap((m) =>
      (m.tool_calls ?? [])
        .filter((c) => c.function.name === 'Append')
        .map((c) => (JSON.parse(c.function.arguments ?? '{}') as { op: string }).op),
    ),
  );
  const ran = (await readFile(effects, 'utf8').catch(() => '')).split('\n').filter(Boolean);
  expect(new Set(ran).size, `${where}: side effects ran more than once: ${ran.join(', ')}`).toBe(ran.length);
  for (const op of ran)
    expect(recordedOps, `${where}: ${op} ran but no call of it is recorded`).toContain(op);
}

describe('the agent loop under chaos', () => {
  it(`survives a seeded schedule of at least ${MIN_FAULTS} faults (seed ${SEED})`, async () => {
    const random = new SeededRandom(SEED);
    const faults = new Map<string, number>();
    const codes = new Map<number, number>();
    let total = 0;
    let session = 0;
    while (total < MIN_FAULTS) {
      const report = await runSession(session++, random);
      for (const fault of report.faults) faults.set(fault, (faults.get(fault) ?? 0) + 1);
      for (const code of report.codes) codes.set(code, (codes.get(code) ?? 0) + 1);
      total += report.faults.length;
    }
    expect([...codes.keys()].every((code) => [0, 1, 75].includes(code))).toBe(true);
    // The schedule covers every kind of fault, and sessions end in every documented way.
    for (const kind of ['cut_after_text', 'cut_after_call', 'cut_mid_arguments', 'stall', 'cut', '500']) {
      expect(faults.get(kind) ?? 0, `faults of kind ${kind}`).toBeGreaterThan(10);
    }
    expect(codes.get(0) ?? 0).toBeGreaterThan(0);
    expect(codes.get(1) ?? 0).toBeGreaterThan(0);
    expect(codes.get(75) ?? 0).toBeGreaterThan(0);
    console.info(
      `chaos: ${session} sessions, ${total} faults ${JSON.stringify(Object.fromEntries(faults))}, exit codes ${JSON.stringify(Object.fromEntries(codes))}`,
    );
  }, 60_000);
});
