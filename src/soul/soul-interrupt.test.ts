import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { noHooks } from '../hooks/types.js';
import type { StreamedPart } from '../kosong/message.js';
import type { ChatProvider } from '../kosong/provider.js';
import { toolOk } from '../kosong/tool.js';
import { KimiToolset } from '../toolset/kimi-toolset.js';
import { testPolicy } from '../toolset/test-support/test-policy.js';
import { defineTool } from '../toolset/tool-definition.js';
import { Context } from './context/context.js';
import { DenwaRenji } from './dmail.js';
import { RunCancelled } from './errors.js';
import { runSoul } from './run-soul.js';
import { Soul } from './soul.js';
import { DEFAULT_LOOP_CONTROL } from './soul-parts.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'soul-interrupt-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Streams `parts`, then stays open until the request is aborted. */
function openEndedModel(parts: StreamedPart[]): ChatProvider {
  return {
    name: 'open-ended',
    modelName: 'open-ended',
    thinkingEffort: null,
    withThinking() {
      return this;
    },
    async generate({ signal }) {
      return {
        id: null,
        usage: null,
        async *[Symbol.asyncIterator]() {
          for (const part of parts) yield structuredClone(part);
          await new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason)));
        },
      };
    },
  };
}

describe('a cancelled step', () => {
  it('enters the context as far as it got: text so far, dispatched calls, their results', async () => {
    const context = await Context.restore(join(dir, 'context.jsonl'));
    const toolset = new KimiToolset({ policy: testPolicy({ workDir: process.cwd() }) });
    toolset.add(
      defineTool({
        name: 'Look',
        description: 'Looks.',
        params: z.object({}),
        effect: 'read-only',
        call: () => toolOk('looked'),
      }),
    );
    const soul = new Soul({
      llm: {
        provider: openEndedModel([
          { type: 'function', id: 'look', function: { name: 'Look', arguments: '{}' } },
          { type: 'text', text: 'Still ' },
          { type: 'text', text: 'typing' },
        ]),
        maxContextSize: 100_000,
        capabilities: new Set(),
      },
      context,
      toolset,
      systemPrompt: 'test',
      loopControl: DEFAULT_LOOP_CONTROL,
      hooks: noHooks,
      denwaRenji: new DenwaRenji(),
      isRoot: true,
      injections: [],
      sleep: async () => {},
    });
    const cancel = new AbortController();
    const run = runSoul(
      (signal) => soul.run('look around', signal).then(() => undefined),
      async (wire) => {
        let typed = '';
        for await (const message of wire.subscribe({ merge: false })) {
          if (message.type === 'ContentPart' && message.payload.type === 'text')
            typed += message.payload.text;
          if (typed === 'Still typing') cancel.abort();
        }
      },
      cancel.signal,
    );
    await expect(run).rejects.toBeInstanceOf(RunCancelled);
    const [user, assistant, tool] = context.history.slice(-3);
    expect(user?.role).toBe('user');
    expect(assistant).toMatchObject({
      role: 'assistant',
      content: [{ type: 'text', text: 'Still typing' }],
      tool_calls: [{ id: 'look' }],
    });
    expect(tool).toMatchObject({ role: 'tool', tool_call_id: 'look' });
    expect(JSON.stringify(tool?.content)).toContain('looked');
    await context.close();
  });
});
