import { visibleWidth } from '@mariozechner/pi-tui';
import { describe, expect, it } from 'vitest';
import { toolOk } from '../../kosong/tool.js';
import type { WireEvent } from '../../wire/events.js';
import { ApprovalRequest, QuestionRequest } from '../../wire/requests.js';
import { ApprovalPanel } from './approval-panel.js';
import { QuestionPanel } from './question-panel.js';
import { StatusLineView } from './status-line.js';
import { tuiStyle } from './tui-style.js';
import { TurnView } from './turn-view.js';

// pi-tui stops the whole UI with an error when a line is wider than the terminal: every view must
// keep to the width it is given, however narrow.
const call = (id: string, name: string, args: string): WireEvent => ({
  type: 'ToolCall',
  payload: { type: 'function', id, function: { name, arguments: args } },
});

function everyView(color: boolean) {
  const style = tuiStyle(color);
  const turn = new TurnView({ style, workDir: '/work', thinking: 'stream' });
  const events: WireEvent[] = [
    {
      type: 'TurnBegin',
      payload: { user_input: 'a fairly long prompt that the user typed into the editor' },
    },
    {
      type: 'ContentPart',
      payload: { type: 'think', think: 'thinking about a long line of thought\nand more' },
    },
    {
      type: 'ContentPart',
      payload: {
        type: 'text',
        text: '# A heading\n\n| a | b |\n| - | - |\n| long cell text | x |\n\n```ts\nconst aVeryLongIdentifierName = anotherFunction(withArguments, andMore);\n```\n\nText 你好世界 wide.',
      },
    },
    call('a', 'Agent', '{"description":"explore the repository in depth"}'),
    {
      type: 'SubagentEvent',
      payload: {
        parent_tool_call_id: 'a',
        agent_id: 'g',
        subagent_type: 'coder',
        event: call('g1', 'Grep', '{"pattern":"some long pattern to search for"}'),
      },
    },
    call('s', 'Shell', '{"command":"npm run build && npm test -- --reporter verbose"}'),
    {
      type: 'ToolResult',
      payload: {
        tool_call_id: 's',
        return_value: toolOk('out', 'A long message from the tool about what happened'),
      },
    },
    {
      type: 'StepRetry',
      payload: { n: 1, next_attempt: 2, max_attempts: 3, wait_s: 1, error_type: 'APIConnectionError' },
    },
    {
      type: 'Notification',
      payload: {
        id: 'n',
        category: 'task',
        type: 'task.completed',
        source_kind: 'task',
        source_id: 't',
        title: 'Background task done',
        body: 'It finished with a long body text',
        severity: 'info',
        created_at: 0,
        payload: {},
      },
    },
  ];
  for (const event of events) turn.handle(event);
  const approval = new ApprovalRequest({
    id: 'r',
    tool_call_id: 's',
    sender: 'StrReplaceFile',
    action: 'edit file outside the work dir',
    description: 'Edit /etc/some/very/long/path/to/a/config/file.conf',
    display: [
      { type: 'shell', language: 'bash', command: 'a long command line with many arguments' },
      {
        type: 'diff',
        path: '/x',
        old_text: 'old line of text\n',
        new_text: 'new line of text\n',
        old_start: 1,
        new_start: 1,
        is_summary: false,
      },
    ],
  });
  const question = new QuestionRequest({
    id: 'q',
    tool_call_id: 'c',
    questions: [
      {
        question: 'Which of these rather long options do you prefer?',
        header: 'Choice',
        options: [
          { label: 'The first option', description: 'with a description' },
          { label: 'The second option', description: 'also described' },
        ],
        multi_select: true,
        body: 'Some body text explaining the choice.',
        other_label: '',
        other_description: '',
      },
    ],
  });
  const status = new StatusLineView(style, 'a-model-with-a-long-name');
  let now = 0;
  const clock = () => now;
  const panels = [
    new ApprovalPanel(approval, style, () => {}, clock),
    new QuestionPanel(question, style, () => {}, clock),
  ];
  // A second pair in their typing stages: the reason for a rejection, an answer of one's own.
  const typing = [
    new ApprovalPanel(approval, style, () => {}, clock),
    new QuestionPanel(question, style, () => {}, clock),
  ];
  for (const panel of typing) panel.render(80);
  now = 1000;
  typing[0]?.handleInput('4');
  typing[1]?.handleInput('3');
  for (const panel of typing) for (const char of 'a reason typed by the user') panel.handleInput(char);
  expect(typing.map((panel) => panel.render(80).join('\n'))).toEqual([
    expect.stringContaining('a reason typed by the user'),
    expect.stringContaining('a reason typed by the user'),
  ]);
  return [turn, ...panels, ...typing, status];
}

describe('every view keeps to its width', () => {
  it.each([false, true])('colour %s, widths 1 to 40', (color) => {
    for (const view of everyView(color)) {
      for (let width = 1; width <= 40; width++) {
        const wide = view.render(width).filter((line) => visibleWidth(line) > width);
        expect(wide, `${view.constructor.name} at width ${width}`).toEqual([]);
      }
    }
  });
});
