import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
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
import { runSoul } from './run-soul.js';
import { Soul } from './soul.js';
import { DEFAULT_LOOP_CONTROL } from './soul-parts.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'soul-resume-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const call = (id: string, name: string, args: unknown) =>
  `tool_call: ${JSON.stringify({ id, name, arguments: JSON.stringify(args) })}`;

function soulOn(context: Context, scripts: string[], calls: string[]): Soul {
  const toolset = new KimiToolset({ policy: testPolicy({ workDir: process.cwd() }) });
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
  return new Soul({
    llm: { provider: new ScriptedProvider(scripts), maxContextSize: 100_000, capabilities: new Set() },
    context,
    toolset,
    systemPrompt: 'You are a test agent.',
    loopControl: DEFAULT_LOOP_CONTROL,
    hooks: noHooks,
    denwaRenji: new DenwaRenji(),
    isRoot: true,
    injections: [],
    sleep: async () => {},
  });
}

async function run(soul: Soul, input: string, resume: boolean): Promise<WireMessage[]> {
  const seen: WireMessage[] = [];
  await runSoul(
    async (signal) => {
      await soul.run(input, signal, { resume });
    },
    async (wire) => {
      for await (const message of wire.subscribe({ merge: true })) seen.push(message);
    },
    new AbortController().signal,
  );
  return seen;
}

it('a resumed turn goes on from the last committed step: no prompt added, no step redone', async () => {
  const file = join(dir, 'context.jsonl');
  // The first process: the prompt and step 1 are committed, then it dies before step 2 ends.
  const first = await Context.restore(file);
  await first.writeSystemPrompt('You are a test agent.');
  const firstCalls: string[] = [];
  const dying = soulOn(first, [call('c1', 'Echo', { text: 'one' })], firstCalls);
  await run(dying, 'do it', false).catch(() => undefined);
  expect(firstCalls).toEqual(['one']);
  await first.close();

  // Another process takes the turn over from the file.
  const second = await Context.restore(file);
  expect(second.history.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
  const secondCalls: string[] = [];
  const taking = soulOn(second, ['text: Done.'], secondCalls);
  const seen = await run(taking, 'do it', true);
  expect(secondCalls).toEqual([]);
  expect(second.history.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  expect(seen.map((m) => m.type).filter((t) => t === 'TurnBegin' || t === 'TurnEnd')).toEqual([
    'TurnBegin',
    'TurnEnd',
  ]);
  await second.close();
});
