import type * as acp from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { streamedPartEvent, wireEvent } from '../../wire/events.js';
import { QuestionRequest } from '../../wire/requests.js';
import { askQuestionsByPermission } from './acp-questions.js';
import { SessionUpdateTranslator } from './session-updates.js';

// Issue #24 over ACP (holes6, 4): a tool's output and a question's text are what the editor shows
// the person, so they are the revealed text every other front end shows, as the permission
// content is (approval-content-revealed.test.ts): a bidi override shows as `⟨U+202E⟩` instead of
// reordering the line, blank-line padding as `⟨N blank lines⟩` instead of scrolling the rest away.

const RLO = '\u202e';

describe('what an ACP editor is shown of a tool’s output and a question', () => {
  it('a tool’s output and message, revealed', () => {
    const t = new SessionUpdateTranslator('/w');
    t.translate(
      streamedPartEvent({ type: 'function', id: 'c1', function: { name: 'Shell', arguments: '{}' } }),
    );
    const [update] = t.translate(
      wireEvent('ToolResult', {
        tool_call_id: 'c1',
        return_value: {
          is_error: false,
          output: `ok #${RLO} ;id\tdone${'\n'.repeat(300)}rm -rf ~`,
          message: `exit 0\u200b\u200b`,
          display: [],
        },
      }),
    );
    expect(update).toMatchObject({
      content: [
        {
          type: 'content',
          content: {
            type: 'text',
            text: 'ok #⟨U+202E⟩ ;id\tdone\n⟨299 blank lines⟩\nrm -rf ~\n\nexit 0⟨U+200B ×2⟩',
          },
        },
      ],
    });
  });

  it('a question’s text, body and choices, revealed; the answer is the choice as given', async () => {
    const label = `Yes${RLO}, delete`;
    const request = new QuestionRequest({
      id: 'q',
      tool_call_id: 'call-1',
      questions: [
        {
          question: `Go on?${'\n'.repeat(200)}(really)`,
          header: '',
          options: [
            { label, description: `it ${RLO}deletes` },
            { label: 'No', description: '' },
          ],
          multi_select: false,
          body: `plan\u2066 hidden\u2069`,
          other_label: '',
          other_description: '',
        },
      ],
    });
    const asked: acp.RequestPermissionRequest[] = [];
    const client = {
      request: async (_method: string, params: acp.RequestPermissionRequest) => {
        asked.push(params);
        return { outcome: { outcome: 'selected', optionId: '0' } };
      },
    } as unknown as acp.AgentContext;
    const answered = request.wait();
    await askQuestionsByPermission(request, 'session', client, undefined);
    expect(asked[0]?.toolCall.content).toEqual([
      {
        type: 'content',
        content: {
          type: 'text',
          text: 'plan⟨U+2066⟩ hidden⟨U+2069⟩\n\nGo on?\n⟨199 blank lines⟩\n(really)\n\n- Yes⟨U+202E⟩, delete — it ⟨U+202E⟩deletes\n- No',
        },
      },
    ]);
    expect(asked[0]?.options.map((option) => option.name)).toEqual(['Yes⟨U+202E⟩, delete', 'No', 'Skip']);
    expect(await answered).toEqual({ [`Go on?${'\n'.repeat(200)}(really)`]: label });
  });
});
