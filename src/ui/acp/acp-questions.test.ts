import type * as acp from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { type QuestionItem, QuestionRequest } from '../../wire/requests.js';
import { askQuestionsByPermission } from './acp-questions.js';

const item = (question: string, labels: string[], multi = false): QuestionItem => ({
  question,
  header: '',
  options: labels.map((label) => ({ label, description: `${label}, really` })),
  multi_select: multi,
  body: '',
  other_label: '',
  other_description: '',
});

/** An editor that answers each permission request with the next of `picks` (and records the requests). */
function editor(picks: string[]) {
  const asked: acp.RequestPermissionRequest[] = [];
  const client = {
    request: async (_method: string, params: acp.RequestPermissionRequest) => {
      asked.push(params);
      return { outcome: { outcome: 'selected', optionId: picks.shift() } };
    },
  } as unknown as acp.AgentContext;
  return { client, asked };
}

describe('questions asked through permission requests', () => {
  it('asks one question after the other and answers with the chosen labels; Skip leaves one out', async () => {
    const request = new QuestionRequest({
      id: 'q',
      tool_call_id: 'call-1',
      questions: [
        item('Which colour?', ['Red', 'Blue']),
        item('Go on?', ['Yes', 'No']),
        item('Size?', ['S', 'L']),
      ],
    });
    const { client, asked } = editor(['1', 'skip', '0']);
    const answered = request.wait();
    await askQuestionsByPermission(request, 'session', client, undefined);
    expect(await answered).toEqual({ 'Which colour?': 'Blue', 'Size?': 'S' });
    expect(asked.map((a) => a.options.map((o) => o.kind))).toEqual([
      ['allow_once', 'allow_once', 'reject_once'],
      ['allow_once', 'reject_once', 'reject_once'],
      ['allow_once', 'allow_once', 'reject_once'],
    ]);
    expect(asked[0]?.toolCall).toMatchObject({
      toolCallId: 'call-1',
      content: [
        {
          type: 'content',
          content: { type: 'text', text: 'Which colour?\n\n- Red — Red, really\n- Blue — Blue, really' },
        },
      ],
    });
  });

  it('refuses questions with several answers as unsupported, without asking', async () => {
    const request = new QuestionRequest({
      id: 'q',
      tool_call_id: 'call-1',
      questions: [item('Which ones?', ['A', 'B'], true)],
    });
    const { client, asked } = editor([]);
    const answered = request.wait();
    await askQuestionsByPermission(request, 'session', client, undefined);
    expect(await answered).toEqual({});
    expect(request.isPending).toBe(false);
    expect(asked).toEqual([]);
  });
});

describe('a subagent question through ACP', () => {
  it("names the asking agent in the title and in _meta; the main agent's question is unchanged", async () => {
    const request = new QuestionRequest({
      id: 'q',
      tool_call_id: 'call-1',
      questions: [item('Which colour?', ['Red', 'Blue'])],
      agent_id: 'a1b2c3d4',
      subagent_type: 'coder',
      source_description: 'Paint #2',
      parent_tool_call_id: 'swarm-1',
    });
    const { client, asked } = editor(['0']);
    await askQuestionsByPermission(request, 'session', client, undefined);
    expect(asked[0]?.toolCall.title).toBe('agent coder a1b2c3d4 — Paint #2: Which colour?');
    expect(asked[0]?.toolCall._meta).toEqual({
      'kimi-ts/asking_agent': {
        agent_id: 'a1b2c3d4',
        subagent_type: 'coder',
        description: 'Paint #2',
        parent_tool_call_id: 'swarm-1',
      },
    });
    const main = new QuestionRequest({ id: 'm', tool_call_id: 'c', questions: [item('Size?', ['S'])] });
    const other = editor(['0']);
    await askQuestionsByPermission(main, 'session', other.client, undefined);
    expect(other.asked[0]?.toolCall.title).toBe('Size?');
    expect(other.asked[0]?.toolCall).not.toHaveProperty('_meta');
  });
});
