import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gate, LoopbackServer } from '../../../../test/support/loopback-server.js';
import { APIConnectionError } from '../../errors.js';
import { message } from '../../message.js';
import { callableTool, SimpleToolset } from '../../simple-toolset.js';
import { step } from '../../step.js';
import { toolOk } from '../../tool.js';
import { KimiProvider } from './kimi-provider.js';
import {
  chatStream,
  finishChunk,
  textChunk,
  toolArgsChunk,
  toolHeaderChunk,
} from './test-support/chat-sse.js';

let server: LoopbackServer;
beforeEach(async () => {
  server = await LoopbackServer.start();
});
afterEach(async () => {
  await server.close();
});

const kimi = () => new KimiProvider({ model: 'kimi-k2', baseUrl: server.url, apiKey: 'sk-step-test' });
const history = [message('user', 'go')];
const objectSchema = { type: 'object', properties: { n: { type: 'number' } } };

describe('step() over the Chat Completions provider', () => {
  it('starts a tool while the stream is still open', async () => {
    const toolStarted = gate<unknown>();
    const streamEnded = gate();
    const toolset = new SimpleToolset([
      callableTool('First', 'first tool', objectSchema, (args) => {
        toolStarted.open(args);
        return toolOk('first done');
      }),
      callableTool('Second', 'second tool', objectSchema, () => toolOk('second done')),
    ]);
    server.enqueue(
      chatStream(
        [
          toolHeaderChunk(0, 'First:0', 'First'),
          toolArgsChunk(0, '{"n":'),
          toolArgsChunk(0, '1}'),
          // The next call starting is what completes the first one.
          toolHeaderChunk(1, 'Second:1', 'Second', '{"n":2}'),
          // Held until the first tool has run: the stream cannot end before that.
          toolStarted.promise,
          finishChunk('tool_calls'),
        ],
        { onClose: () => streamEnded.open() },
      ),
    );

    const order: string[] = [];
    void toolStarted.promise.then(() => order.push('tool started'));
    const result = await step(kimi(), '', toolset, history);
    order.push('stream ended');

    expect(await toolStarted.promise).toEqual({ n: 1 });
    expect(order).toEqual(['tool started', 'stream ended']);
    expect(result.toolCalls.map((call) => call.id)).toEqual(['First:0', 'Second:1']);
    const results = await result.toolResults();
    expect(results.map((r) => [r.tool_call_id, r.return_value.output])).toEqual([
      ['First:0', 'first done'],
      ['Second:1', 'second done'],
    ]);
    await streamEnded.promise;
    // A tool that did not start early would hold the stream open until this limit.
  }, 5_000);

  it('aborts and awaits a running tool before rejecting when the stream breaks', async () => {
    const toolStarted = gate();
    const log: string[] = [];
    const toolset = new SimpleToolset([
      callableTool('Slow', 'runs until aborted', objectSchema, (_args, { signal }) => {
        log.push('tool started');
        toolStarted.open();
        return new Promise((resolve) => {
          signal.addEventListener('abort', () => {
            log.push('tool saw abort');
            // Settles a tick later, so the test sees whether step() waited for it.
            queueMicrotask(() => {
              log.push('tool settled');
              resolve(toolOk('stopped'));
            });
          });
        });
      }),
    ]);
    server.enqueue(
      chatStream([
        toolHeaderChunk(0, 'Slow:0', 'Slow', '{"n":1}'),
        textChunk('Working on it'),
        toolStarted.promise,
        'drop',
      ]),
    );

    const error = await step(kimi(), '', toolset, history).catch((e: unknown) => e);
    log.push('step rejected');

    expect(error).toBeInstanceOf(APIConnectionError);
    expect(log).toEqual(['tool started', 'tool saw abort', 'tool settled', 'step rejected']);
  });
});
