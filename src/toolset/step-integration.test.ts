import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { gate, LoopbackServer } from '../../test/support/loopback-server.js';
import { APIConnectionError, message, step, type ToolResult, toolOk } from '../kosong/index.js';
import { KimiProvider } from '../kosong/providers/openai-chat/kimi-provider.js';
import {
  chatStream,
  finishChunk,
  textChunk,
  toolHeaderChunk,
} from '../kosong/providers/openai-chat/test-support/chat-sse.js';
import { Approval } from './approval/approval.js';
import { KimiToolset } from './kimi-toolset.js';
import { withTestPolicy } from './test-support/test-policy.js';
import { defineTool } from './tool-definition.js';
import { toolErrorKind } from './tool-errors.js';
import { toolResultToMessage } from './tool-result-message.js';

let server: LoopbackServer;
let dir: string;
beforeEach(async () => {
  server = await LoopbackServer.start();
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-step-toolset-'));
});
afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** The toolset as the soul builds it, with a writer and a reader; yolo so approval is not the subject here. */
function toolset(onPeek: () => void) {
  const tools = new KimiToolset(withTestPolicy({ approval: new Approval({ state: { yolo: true } }) }));
  tools.add(
    defineTool({
      name: 'WriteFile',
      description: 'Writes a file.',
      params: z.object({ path: z.string(), content: z.string() }),
      effect: 'writes-files',
      call: async ({ path, content }) => {
        await writeFile(path, content);
        return toolOk('', 'File written.');
      },
    }),
  );
  tools.add(
    defineTool({
      name: 'Peek',
      description: 'Reads nothing.',
      params: z.object({}),
      effect: 'read-only',
      call: () => {
        onPeek();
        return toolOk('peeked');
      },
    }),
  );
  return tools;
}

const provider = () => new KimiProvider({ model: 'kimi-k2', baseUrl: server.url, apiKey: 'sk-toolset-test' });

describe('KimiToolset under kosong step, against an OpenAI-compatible stream', () => {
  it('never performs a side effect whose model response was cut, while read-only calls already ran', async () => {
    const peeked = gate();
    const target = join(dir, 'cut.txt');
    server.enqueue(
      chatStream([
        toolHeaderChunk(0, 'w1', 'WriteFile', JSON.stringify({ path: target, content: 'half' })),
        toolHeaderChunk(1, 'p1', 'Peek', '{}'),
        textChunk('and now'),
        peeked.promise,
        'drop',
      ]),
    );
    const results: ToolResult[] = [];
    const error = await step(
      provider(),
      '',
      toolset(() => peeked.open()),
      [message('user', 'go')],
      {
        onToolResult: (result) => results.push(result),
      },
    ).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(APIConnectionError);
    expect(existsSync(target)).toBe(false);
    const write = results.find((r) => r.tool_call_id === 'w1')!;
    expect(toolErrorKind(write.return_value)).toBe('not_run');
    expect(results.find((r) => r.tool_call_id === 'p1')!.return_value.output).toBe('peeked');
  });

  it('performs the side effect once the stream ended cleanly and reports it to the model', async () => {
    const target = join(dir, 'ok.txt');
    server.enqueue(
      chatStream([
        toolHeaderChunk(0, 'w1', 'WriteFile', JSON.stringify({ path: target, content: 'whole' })),
        finishChunk('tool_calls'),
      ]),
    );
    const result = await step(
      provider(),
      '',
      toolset(() => {}),
      [message('user', 'go')],
    );
    const [written] = await result.toolResults();
    expect(await readFile(target, 'utf8')).toBe('whole');
    expect(toolResultToMessage(written!).content).toEqual([
      { type: 'text', text: '<system>File written.</system>' },
    ]);
  });
});
