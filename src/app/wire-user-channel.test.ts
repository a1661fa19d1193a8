import { describe, expect, it } from 'vitest';
import { runWithApprovalSource } from '../toolset/approval/approval-source.js';
import { runWithWire, Wire } from '../wire/index.js';
import { wireMessageToJSON } from '../wire/message-json.js';
import type { QuestionRequest } from '../wire/requests.js';
import { wireUserChannel } from './wire-user-channel.js';

const questions = [
  {
    question: 'Which colour?',
    header: '',
    options: [{ label: 'Red', description: '' }],
    multi_select: false,
    body: '',
    other_label: '',
    other_description: '',
  },
];

/** Asks through the channel on a fresh wire, as `source` (a subagent's run, or none), and answers Red. */
async function askedAs(source: Parameters<typeof runWithApprovalSource>[0] | null): Promise<QuestionRequest> {
  const wire = new Wire();
  const ui = wire.subscribe({ merge: true });
  const ask = () =>
    wireUserChannel.ask(questions, { toolCallId: 'c1', signal: new AbortController().signal });
  const outcome = runWithWire(wire, () => (source ? runWithApprovalSource(source, ask) : ask()));
  const message = await ui.receive();
  if (message?.type !== 'QuestionRequest') throw new Error('no question was sent');
  message.resolve({ 'Which colour?': 'Red' });
  expect((await outcome).status).toBe('answered');
  return message;
}

describe('a question on the wire says which agent asks', () => {
  it("a subagent's question carries its id, type, description and parent call", async () => {
    const request = await askedAs({
      kind: 'foreground_turn',
      id: 'run-1',
      agent_id: 'a1b2c3d4',
      subagent_type: 'coder',
      description: 'Paint #2',
      parent_tool_call_id: 'swarm-1',
    });
    expect(wireMessageToJSON(request).payload).toMatchObject({
      agent_id: 'a1b2c3d4',
      subagent_type: 'coder',
      source_description: 'Paint #2',
      parent_tool_call_id: 'swarm-1',
    });
  });

  it("the main agent's question is written as Kimi CLI writes it (no new fields)", async () => {
    const payload = wireMessageToJSON(await askedAs({ kind: 'foreground_turn', id: 'turn-1' })).payload;
    expect(Object.keys(payload).sort()).toEqual(['id', 'questions', 'tool_call_id']);
    const none = wireMessageToJSON(await askedAs(null)).payload;
    expect(Object.keys(none).sort()).toEqual(['id', 'questions', 'tool_call_id']);
  });
});
