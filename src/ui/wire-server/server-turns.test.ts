import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { RootWireTracker } from '../../app/subagents/root-wire-tracker.js';
import { APIStatusError } from '../../kosong/errors.js';
import type { ToolReturnValue } from '../../kosong/tool.js';
import { LLMNotSet, LLMNotSupported, MaxStepsReached } from '../../soul/errors.js';
import { wireSend } from '../../soul/run-soul.js';
import { deferred } from '../../util/deferred.js';
import { streamedPartEvent, wireEvent } from '../../wire/events.js';
import {
  type ApprovalAnswer,
  ApprovalRequest,
  QuestionRequest,
  ToolCallRequest,
} from '../../wire/requests.js';
import { ScriptedSession } from '../common/test-support/scripted-turn-session.js';
import { envelopeOf, TestWireClient } from './test-support/in-memory-wire-client.js';

let dir: string;
let session: ScriptedSession;
let client: TestWireClient;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-wire-turns-'));
  session = new ScriptedSession(dir, join(dir, 'wire.jsonl'));
  client = new TestWireClient(session);
});
afterEach(async () => {
  await client.close();
  expect(client.badLines).toEqual([]);
  await rm(dir, { recursive: true, force: true });
});

const text = (value: string) => streamedPartEvent({ type: 'text', text: value });

/** A promise with its resolve function, for a soul that waits on the test. */

function approval(id: string, sourceKind: 'foreground_turn' | 'background_agent' = 'foreground_turn') {
  return new ApprovalRequest({
    id,
    tool_call_id: `call-${id}`,
    sender: 'Shell',
    action: 'run command',
    description: 'Run `ls`',
    display: [{ type: 'brief', text: 'ls' }],
    source_kind: sourceKind,
  });
}

/** Resolves when the soul's signal aborts. */
const aborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });

describe('prompt', () => {
  test('streams every raw wire message as an event, then answers finished', async () => {
    session.script = async (turn) => {
      wireSend(wireEvent('TurnBegin', { user_input: turn.input }));
      wireSend(wireEvent('StepBegin', { n: 1 }));
      wireSend(text('Hel'));
      wireSend(text('lo'));
      wireSend(wireEvent('TurnEnd', {}));
    };
    const response = await client.request('prompt', { user_input: [{ type: 'text', text: 'hi' }] });
    expect(response.result).toEqual({ status: 'finished' });
    expect(client.events()).toEqual([
      { type: 'TurnBegin', payload: { user_input: [{ type: 'text', text: 'hi' }] } },
      { type: 'StepBegin', payload: { n: 1 } },
      { type: 'ContentPart', payload: { type: 'text', text: 'Hel' } },
      { type: 'ContentPart', payload: { type: 'text', text: 'lo' } },
      { type: 'TurnEnd', payload: {} },
    ]);
    const last = client.messages.at(-1);
    expect(last).toBe(response);
    expect(client.messages[0]).toEqual({
      jsonrpc: '2.0',
      method: 'event',
      params: { type: 'TurnBegin', payload: { user_input: [{ type: 'text', text: 'hi' }] } },
    });
  });

  test('a prompt sent as a notification runs its turn and gets no answer', async () => {
    session.script = async (turn) => {
      wireSend(wireEvent('TurnBegin', { user_input: turn.input }));
      wireSend(text('quiet'));
      wireSend(wireEvent('TurnEnd', {}));
    };
    client.send({ jsonrpc: '2.0', method: 'prompt', params: { user_input: 'hi' } });
    await client.waitForEvent('TurnEnd');
    // The next request is answered; nothing was ever written back for the notification.
    const unknown = await client.request('frobnicate');
    expect(unknown.error).toMatchObject({ code: -32601 });
    expect(client.messages.filter((m) => !('method' in m))).toEqual([unknown]);
    expect(client.events().map((e) => e.type)).toEqual(['TurnBegin', 'ContentPart', 'TurnEnd']);
  });

  test('keeps up with token streaming by batching writes', async () => {
    const count = 20_000;
    session.script = async () => {
      for (let i = 0; i < count; i++) wireSend(text(`t${i} `));
    };
    expect((await client.request('prompt', { user_input: 'go' })).result).toEqual({ status: 'finished' });
    const parts = client.events().map((e) => e.payload.text);
    expect(parts).toHaveLength(count);
    expect(parts[count - 1]).toBe(`t${count - 1} `);
    expect(client.outputWrites).toBeLessThan(count / 100);
  });

  test('a second prompt, initialize or replay during a turn gets -32000', async () => {
    const release = deferred();
    const started = deferred();
    session.script = async () => {
      started.resolve();
      await release.promise;
    };
    const first = client.request('prompt', { user_input: 'one' });
    await started.promise;
    for (const [method, params] of [
      ['prompt', { user_input: 'two' }],
      ['initialize', { protocol_version: '1.10' }],
      ['replay', undefined],
    ] as const) {
      expect((await client.request(method, params)).error).toEqual({
        code: -32000,
        message: 'An agent turn is already in progress',
      });
    }
    release.resolve();
    expect((await first).result).toEqual({ status: 'finished' });
  });

  test('turn failures map to wire-mode error codes and statuses', async () => {
    const cases: [Error, Record<string, unknown>][] = [
      [new LLMNotSet('not set'), { error: { code: -32001, message: 'LLM is not set' } }],
      [
        new LLMNotSupported('tiny-model', ['image_in']),
        { error: { code: -32002, message: 'The model `tiny-model` does not support: image_in.' } },
      ],
      [
        new APIStatusError('Too many requests', 429),
        { error: { code: -32003, message: 'APIStatusError: Too many requests' } },
      ],
      [new MaxStepsReached(7), { result: { status: 'max_steps_reached', steps: 7 } }],
      [new TypeError('boom'), { error: { code: -32603, message: 'TypeError: boom' } }],
    ];
    for (const [error, expected] of cases) {
      session.script = async () => {
        throw error;
      };
      expect(await client.request('prompt', { user_input: 'x' })).toMatchObject(expected);
    }
  });

  test('without an LLM the prompt fails with -32001 "LLM is not set", the how-to in data, running nothing', async () => {
    session.hasLLM = false;
    let ran = false;
    session.script = async () => {
      ran = true;
    };
    // Kimi CLI's message, which programs key on; the how-to rides in `data`.
    expect((await client.request('prompt', { user_input: 'x' })).error).toEqual({
      code: -32001,
      message: 'LLM is not set',
      data: { detail: session.llmNotSetMessage },
    });
    expect(ran).toBe(false);
  });
});

describe('steer and cancel', () => {
  test('steer reaches the running turn; outside a turn it is -32000', async () => {
    expect((await client.request('steer', { user_input: 'early' })).error).toEqual({
      code: -32000,
      message: 'No agent turn is in progress',
    });
    session.script = async (turn) => {
      wireSend(wireEvent('TurnBegin', { user_input: turn.input }));
      const steer = await turn.nextSteer();
      wireSend(wireEvent('SteerInput', { user_input: steer }));
      wireSend(wireEvent('TurnEnd', {}));
    };
    const prompt = client.request('prompt', { user_input: 'start' });
    await client.waitForEvent('TurnBegin');
    expect((await client.request('steer', { user_input: 'use Python' })).result).toEqual({
      status: 'steered',
    });
    expect((await prompt).result).toEqual({ status: 'finished' });
    expect(client.events().map((e) => e.type)).toEqual(['TurnBegin', 'SteerInput', 'TurnEnd']);
    expect(client.events()[1]!.payload).toEqual({ user_input: 'use Python' });
  });

  test('cancel answers {} and the running prompt returns cancelled; idle cancel is -32000', async () => {
    session.script = async (turn) => {
      wireSend(wireEvent('TurnBegin', { user_input: turn.input }));
      await aborted(turn.signal);
      throw turn.signal.reason;
    };
    const prompt = client.request('prompt', { user_input: 'long job' });
    await client.waitForEvent('TurnBegin');
    expect((await client.request('cancel')).result).toEqual({});
    expect((await prompt).result).toEqual({ status: 'cancelled' });
    expect((await client.request('cancel')).error).toEqual({
      code: -32000,
      message: 'No agent turn is in progress',
    });
    // The server is ready for the next turn.
    session.script = async () => {};
    expect((await client.request('prompt', { user_input: 'again' })).result).toEqual({ status: 'finished' });
  });
});

describe('requests to the client', () => {
  test('an approval is sent as a request and resolved by the client answer', async () => {
    const answers: ApprovalAnswer[] = [];
    session.script = async (turn) => {
      for (const id of ['a1', 'a2', 'a3']) {
        const request = approval(id);
        wireSend(request);
        answers.push(await request.wait(turn.signal));
      }
    };
    const prompt = client.request('prompt', { user_input: 'x' });

    const first = await client.waitForRequest('ApprovalRequest');
    expect(first).toEqual({
      jsonrpc: '2.0',
      method: 'request',
      id: 'a1',
      params: {
        type: 'ApprovalRequest',
        payload: {
          id: 'a1',
          tool_call_id: 'call-a1',
          sender: 'Shell',
          action: 'run command',
          description: 'Run `ls`',
          source_kind: 'foreground_turn',
          source_id: null,
          agent_id: null,
          subagent_type: null,
          source_description: null,
          display: [{ type: 'brief', text: 'ls' }],
        },
      },
    });
    client.respond('a1', { request_id: 'a1', response: 'approve_for_session' });
    await client.waitFor((m) => m.id === 'a2');
    client.respondError('a2', -32000, 'user closed the dialog');
    await client.waitFor((m) => m.id === 'a3');
    client.respond('a3', { request_id: 'a3', response: 'maybe' });

    expect((await prompt).result).toEqual({ status: 'finished' });
    expect(answers).toEqual([
      { response: 'approve_for_session', feedback: '' },
      { response: 'reject', feedback: '' },
      { response: 'reject', feedback: '' },
    ]);
    // Each answer taken as a rejection is explained on stderr.
    expect(client.stderr).toContain(
      'wire: approval request a2 is taken as rejected: the client answered with an error (user closed the dialog)',
    );
    expect(client.stderr).toContain(
      'wire: approval request a3 is taken as rejected: the answer is not one of approve, approve_for_session, reject',
    );
  });

  test('an approval answer with feedback carries the feedback', async () => {
    let answer: ApprovalAnswer | null = null;
    session.script = async (turn) => {
      const request = approval('f1');
      wireSend(request);
      answer = await request.wait(turn.signal);
    };
    const prompt = client.request('prompt', { user_input: 'x' });
    await client.waitForRequest('ApprovalRequest');
    client.respond('f1', { request_id: 'f1', response: 'reject', feedback: 'use git mv instead' });
    await prompt;
    expect(answer).toEqual({ response: 'reject', feedback: 'use git mv instead' });
  });

  test('an external tool call is answered by the client with a ToolResult or an error', async () => {
    const results: ToolReturnValue[] = [];
    session.script = async (turn) => {
      for (const id of ['t1', 't2', 't3']) {
        const request = new ToolCallRequest({ id, name: 'open_in_ide', arguments: '{"path":"README.md"}' });
        wireSend(request);
        results.push(await request.wait(turn.signal));
      }
    };
    const prompt = client.request('prompt', { user_input: 'x' });
    const call = await client.waitForRequest('ToolCallRequest');
    expect(envelopeOf(call).payload).toEqual({
      id: 't1',
      name: 'open_in_ide',
      arguments: '{"path":"README.md"}',
    });
    client.respond('t1', {
      tool_call_id: 't1',
      return_value: { is_error: false, output: 'Opened', message: 'Opened README.md', display: [] },
    });
    await client.waitFor((m) => m.id === 't2');
    client.respondError('t2', -32000, 'IDE not running');
    await client.waitFor((m) => m.id === 't3');
    client.respond('t3', { tool_call_id: 't3', return_value: { output: 42 } });
    expect((await prompt).result).toEqual({ status: 'finished' });

    expect(results[0]).toEqual({
      is_error: false,
      output: 'Opened',
      message: 'Opened README.md',
      display: [],
    });
    expect(results[1]).toEqual({
      is_error: true,
      output: '',
      message: 'IDE not running',
      display: [{ type: 'brief', text: 'External tool error' }],
    });
    expect(results[2]).toMatchObject({
      is_error: true,
      display: [{ type: 'brief', text: 'External tool error' }],
    });
    expect(results[2]!.message).toMatch(/invalid result/);
  });

  test('questions go to clients that support them and are dismissed for others', async () => {
    const answers: Record<string, string>[] = [];
    session.script = async (turn) => {
      const request = new QuestionRequest({
        id: `q${answers.length}`,
        tool_call_id: 'call-q',
        questions: [
          {
            question: 'Which language?',
            header: 'Lang',
            options: [
              { label: 'Python', description: '' },
              { label: 'Rust', description: '' },
            ],
            multi_select: false,
            body: '',
            other_label: '',
            other_description: '',
          },
        ],
      });
      wireSend(request);
      answers.push(await request.wait(turn.signal));
    };
    // A legacy client (no initialize) cannot answer: the question is never sent.
    expect((await client.request('prompt', { user_input: 'x' })).result).toEqual({ status: 'finished' });
    expect(client.messages.some((m) => m.method === 'request')).toBe(false);

    await client.request('initialize', {
      protocol_version: '1.10',
      capabilities: { supports_question: true },
    });
    const prompt = client.request('prompt', { user_input: 'y' });
    const question = await client.waitForRequest('QuestionRequest');
    expect(question.id).toBe('q1');
    client.respond('q1', { request_id: 'q1', answers: { 'Which language?': 'Rust' } });
    await prompt;
    expect(answers).toEqual([{}, { 'Which language?': 'Rust' }]);
  });

  test('a request left unanswered when the turn ends is closed; a late answer is ignored', async () => {
    const leftover = approval('late');
    session.script = async () => {
      wireSend(leftover); // sent but never awaited by the soul
    };
    expect((await client.request('prompt', { user_input: 'x' })).result).toEqual({ status: 'finished' });
    expect(leftover.state).toMatchObject({ status: 'cancelled', answer: { response: 'reject' } });
    client.respond('late', { request_id: 'late', response: 'approve' });
    expect((await client.request('cancel')).error).toMatchObject({ code: -32000 });
    expect(leftover.state.status).toBe('cancelled');
  });
});

describe('EOF during a turn', () => {
  test('cancels the turn, closes pending requests, and exits 0', async () => {
    let toolResult: ToolReturnValue | null = null;
    let approvalAnswer: ApprovalAnswer | null = null;
    const soulDone = deferred();
    session.script = async (turn) => {
      try {
        const request = approval('pending-approval');
        wireSend(request);
        const tool = new ToolCallRequest({ id: 'ext-1', name: 'open_in_ide', arguments: '{}' });
        wireSend(tool);
        [approvalAnswer, toolResult] = await Promise.all([request.wait(), tool.wait()]);
        await aborted(turn.signal);
        throw turn.signal.reason;
      } finally {
        soulDone.resolve();
      }
    };
    client.request('prompt', { user_input: 'x' });
    await client.waitForRequest('ToolCallRequest');
    expect(await client.close()).toBe(0);
    await soulDone.promise;
    expect(session.isBusy).toBe(false);
    expect(approvalAnswer).toEqual({ response: 'reject', feedback: '' });
    expect(toolResult).toEqual({
      is_error: true,
      output: '',
      message: 'Wire connection closed before tool result was received.',
      display: [{ type: 'brief', text: 'Wire closed' }],
    });
    // The prompt's own answer still went out.
    expect(client.messages.at(-1)).toMatchObject({ result: { status: 'cancelled' } });
  });
});

describe('between turns', () => {
  test("a background agent's approval reaches an initialized client, then how it was settled", async () => {
    const tracker = new RootWireTracker(session.outOfTurn);
    const early = approval('bg-early', 'background_agent');
    tracker.deliver(early); // nobody listens yet: held
    expect(early.isPending).toBe(true);

    const initialized = await client.request('initialize', { protocol_version: '1.10' });
    const sent = await client.waitForRequest('ApprovalRequest');
    expect(sent).toMatchObject({ id: 'bg-early', params: { payload: { source_kind: 'background_agent' } } });
    // The held request follows the initialize answer.
    expect(client.messages.indexOf(initialized)).toBeLessThan(client.messages.indexOf(sent));

    client.respond('bg-early', { request_id: 'bg-early', response: 'approve', feedback: 'go ahead' });
    expect(await early.wait()).toEqual({ response: 'approve', feedback: 'go ahead' });
    expect(envelopeOf(await client.waitForEvent('ApprovalResponse')).payload).toEqual({
      request_id: 'bg-early',
      response: 'approve',
      feedback: 'go ahead',
    });

    // Once listening, a later request goes out at once; one settled elsewhere is reported too.
    const late = approval('bg-late', 'background_agent');
    tracker.deliver(late);
    await client.waitFor((m) => m.id === 'bg-late');
    late.cancel('The background agent ended.');
    await client.waitFor((m) => m.method === 'event' && envelopeOf(m).payload.request_id === 'bg-late');
    expect(client.events().at(-1)).toEqual({
      type: 'ApprovalResponse',
      payload: { request_id: 'bg-late', response: 'reject', feedback: '' },
    });
  });

  test('a client that never initializes is not sent requests between turns', async () => {
    const tracker = new RootWireTracker(session.outOfTurn);
    const request = approval('bg-held', 'background_agent');
    tracker.deliver(request);
    session.script = async () => {
      wireSend(text('hello'));
    };
    expect((await client.request('prompt', { user_input: 'x' })).result).toEqual({ status: 'finished' });
    expect(client.messages.some((m) => m.method === 'request')).toBe(false);
    expect(request.isPending).toBe(true);
  });
});

describe('live tool output (ToolOutput, a kimi-ts extension)', () => {
  const script = async (turn: { input: unknown }) => {
    wireSend(wireEvent('TurnBegin', { user_input: turn.input as string }));
    wireSend(wireEvent('ToolOutput', { tool_call_id: 'c1', text: 'line 1\n' }));
    wireSend(wireEvent('TurnEnd', {}));
  };

  test('is not sent to a client that did not ask for it (Kimi CLI’s clients do not know it)', async () => {
    session.script = script;
    await client.request('initialize', { protocol_version: '1.10' });
    await client.request('prompt', { user_input: 'hi' });
    expect(client.events().map((e) => e.type)).toEqual(['TurnBegin', 'TurnEnd']);
  });

  test('is sent to a client that declares supports_tool_output', async () => {
    session.script = script;
    await client.request('initialize', {
      protocol_version: '1.10',
      capabilities: { supports_tool_output: true },
    });
    await client.request('prompt', { user_input: 'hi' });
    expect(client.events()).toEqual([
      { type: 'TurnBegin', payload: { user_input: 'hi' } },
      { type: 'ToolOutput', payload: { tool_call_id: 'c1', text: 'line 1\n' } },
      { type: 'TurnEnd', payload: {} },
    ]);
  });
});
