import { describe, expect, it } from 'vitest';
import { type QuestionItem, QuestionRequest } from '../../wire/requests.js';
import { APPROVAL_ARM_DELAY_MS } from './approval-panel.js';
import { QuestionPanel } from './question-panel.js';
import { tuiStyle } from './tui-style.js';

const item = (question: string, multi_select: boolean): QuestionItem => ({
  question,
  header: '',
  options: [
    { label: 'Red', description: '' },
    { label: 'Green', description: '' },
    { label: 'Blue', description: '' },
  ],
  multi_select,
  body: '',
  other_label: '',
  other_description: '',
});

function panel(...questions: QuestionItem[]) {
  const request = new QuestionRequest({ id: 'q', tool_call_id: 'c', questions });
  let now = 0;
  const view = new QuestionPanel(
    request,
    tuiStyle(false),
    () => {},
    () => now,
  );
  view.render(80);
  now = APPROVAL_ARM_DELAY_MS;
  return { request, view };
}

describe('QuestionPanel', () => {
  it('answers each question in turn: a number, toggles + Enter, an answer of ones own', () => {
    const { request, view } = panel(item('One?', false), item('Many?', true), item('Own?', false));
    view.handleInput('2');
    expect(view.render(80).join('\n')).toContain('Many? (2/3)');
    view.handleInput('1');
    view.handleInput('3');
    expect(view.render(80).join('\n')).toContain('[x] Blue');
    view.handleInput('\r');
    view.handleInput('4');
    for (const char of 'Purple') view.handleInput(char);
    view.handleInput('\r');
    expect(request.state).toEqual({
      status: 'resolved',
      answer: { 'One?': 'Green', 'Many?': 'Red, Blue', 'Own?': 'Purple' },
    });
  });

  it('Esc skips a question', () => {
    const { request, view } = panel(item('Skip me?', false));
    view.handleInput('\x1b');
    expect(request.state).toMatchObject({ status: 'resolved', answer: {} });
  });
});

describe('QuestionPanel: which agent asks', () => {
  it("a subagent's question names it (terminal-safe); the main agent's names nobody", () => {
    const request = new QuestionRequest({
      id: 'q',
      tool_call_id: 'c',
      questions: [item('Which colour?', false)],
      agent_id: 'a1b2c3d4',
      subagent_type: 'coder',
      source_description: 'Paint \x1b[2J\x1b]0;owned\x07 #2',
    });
    const view = new QuestionPanel(request, tuiStyle(false), () => {});
    const text = view.render(120).join('\n');
    expect(text).toContain('agent coder a1b2c3d4 — Paint');
    expect(text).toContain('asks');
    expect(text).not.toContain('\x1b[2J');
    expect(text).not.toContain('\x07');
    const main = new QuestionPanel(
      new QuestionRequest({ id: 'q2', tool_call_id: 'c', questions: [item('Which colour?', false)] }),
      tuiStyle(false),
      () => {},
    );
    expect(main.render(120).join('\n')).not.toContain('asks');
  });
});
