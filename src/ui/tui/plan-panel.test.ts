import { TUI } from '@mariozechner/pi-tui';
import { describe, expect, it } from 'vitest';
import { type QuestionItem, QuestionRequest } from '../../wire/requests.js';
import { APPROVAL_ARM_DELAY_MS } from './approval-panel.js';
import { PlanPanel } from './plan-panel.js';
import { PlanView } from './plan-view.js';
import { HeadlessTerminal } from './test-support/headless-terminal.js';
import { tuiStyle } from './tui-style.js';

const QUESTION = 'Approve this plan?';

/** ExitPlanMode's question: Approve (or the model's options), Reject, Reject and Exit; Revise types. */
const planQuestion = (
  options = [{ label: 'Approve', description: 'Start carrying it out' }],
): QuestionItem => ({
  question: QUESTION,
  header: 'Plan',
  options: [
    ...options,
    { label: 'Reject', description: 'Stay in plan mode' },
    { label: 'Reject and Exit', description: 'Leave plan mode' },
  ],
  multi_select: false,
  body: '',
  other_label: 'Revise',
  other_description: 'Say what to change',
});

const PGDN = '\x1b[6~';
const PGUP = '\x1b[5~';
const END = '\x1b[F';
const HOME = '\x1b[H';

function panel(content: string, { rows = 40, color = false, options = planQuestion() } = {}) {
  const request = new QuestionRequest({ id: 'q', tool_call_id: 'c', questions: [options] });
  const style = tuiStyle(color);
  const plan = new PlanView({ content, file_path: '/home/u/.kimi-ts/plans/a-b-c.md' }, style);
  let now = 0;
  let done = 0;
  const view = new PlanPanel(request, plan, style, () => done++, { rows: () => rows, now: () => now });
  const screen = (width = 80) => view.render(width).join('\n');
  return {
    request,
    plan,
    view,
    screen,
    arm: () => {
      view.render(80);
      now = APPROVAL_ARM_DELAY_MS;
    },
    keys: (...keys: string[]) => {
      for (const key of keys) view.handleInput(key);
    },
    done: () => done,
  };
}

const answer = (request: QuestionRequest) => request.state;

describe('PlanPanel', () => {
  it('shows the plan as Markdown with its file, and the choices; 1 approves', () => {
    const p = panel('# Fix the bug\n\n1. **Read** the code\n2. Change `main.ts`\n');
    p.arm();
    const shown = p.screen();
    expect(shown).toContain('Plan · /home/u/.kimi-ts/plans/a-b-c.md');
    expect(shown).toContain('Fix the bug');
    expect(shown).not.toContain('**Read**');
    expect(shown).toMatch(/1\. Read the code/);
    expect(shown).toContain('? Approve this plan?');
    expect(shown).toMatch(/› 1\. Approve — Start carrying it out\n {2}2\. Reject — Stay in plan mode/);
    expect(shown).toContain('  4. Revise — Say what to change');
    expect(shown).toContain('↑/↓ + Enter, or a number · Esc closes');
    // A short plan has no scroll line.
    expect(shown).not.toContain('PgUp/PgDn scroll');
    p.keys('1');
    expect(answer(p.request)).toEqual({ status: 'resolved', answer: { [QUESTION]: 'Approve' } });
    expect(p.done()).toBe(1);
    // The conversation keeps the plan, with the answer.
    const kept = p.plan.render(80).join('\n');
    expect(kept).toContain('Fix the bug');
    expect(kept).toContain('→ Approve');
  });

  it('never takes keys typed before it was on screen a moment', () => {
    const p = panel('1. step');
    p.view.render(80);
    p.keys('1', '\r', '3');
    expect(p.request.isPending).toBe(true);
    expect(p.screen()).toContain('  …');
  });

  it('↓↓ + Enter rejects and exits; the model’s options replace Approve', () => {
    const rejecting = panel('1. step');
    rejecting.arm();
    rejecting.keys('\x1b[B', '\x1b[B', '\r');
    expect(answer(rejecting.request)).toEqual({
      status: 'resolved',
      answer: { [QUESTION]: 'Reject and Exit' },
    });

    const options = planQuestion([
      { label: 'Patch it (Recommended)', description: 'small' },
      { label: 'Rewrite it', description: 'big' },
    ]);
    const choosing = panel('1. step', { options });
    choosing.arm();
    const shown = choosing.screen();
    expect(shown).not.toContain('Approve —');
    expect(shown).toContain('2. Rewrite it — big');
    expect(shown).toContain('5. Revise');
    choosing.keys('2');
    expect(answer(choosing.request)).toEqual({ status: 'resolved', answer: { [QUESTION]: 'Rewrite it' } });
  });

  it('Revise asks what to change; the text is the answer, an empty one is not sent', () => {
    const p = panel('1. step');
    p.arm();
    p.keys('4');
    expect(p.screen()).toContain('What should change in the plan?');
    p.keys('\r');
    expect(p.request.isPending).toBe(true);
    for (const char of 'add tests first') p.keys(char);
    p.keys('\r');
    expect(answer(p.request)).toEqual({ status: 'resolved', answer: { [QUESTION]: 'add tests first' } });
    expect(p.plan.render(80).join('\n')).toContain('→ Revise: add tests first');
  });

  it('a Revise text that is a choice’s label is that choice, and the conversation says so', () => {
    const p = panel('1. step');
    p.arm();
    p.keys('4');
    for (const char of 'Approve') p.keys(char);
    p.keys('\r');
    expect(answer(p.request)).toEqual({ status: 'resolved', answer: { [QUESTION]: 'Approve' } });
    const kept = p.plan.render(80).join('\n');
    expect(kept).toContain('→ Approve');
    expect(kept).not.toContain('Revise:');
  });

  it('Esc closes it without an answer (plan mode stays on); Esc while revising goes back first', () => {
    const p = panel('1. step');
    p.arm();
    p.keys('4', '\x1b');
    expect(p.screen()).toContain('1. Approve');
    p.keys('\x1b');
    expect(answer(p.request)).toEqual({ status: 'resolved', answer: {} });
  });

  it('keeps a long plan in a window of bounded height that PgUp/PgDn and End scroll', () => {
    const content = Array.from({ length: 100 }, (_, i) => `Step ${i + 1} of the plan.\n`).join('\n');
    const p = panel(content, { rows: 24 });
    p.arm();
    const first = p.view.render(80);
    // The panel leaves room for the prompt editor and the status line.
    expect(first.length).toBeLessThanOrEqual(24 - 6);
    expect(first.join('\n')).toContain('Step 1 of the plan.');
    expect(first.join('\n')).not.toContain('Step 20 of the plan.');
    expect(first.join('\n')).toMatch(/lines 1–\d+ of \d+ · PgUp\/PgDn scroll/);
    p.keys(PGDN);
    const paged = p.screen();
    expect(paged).not.toContain('Step 1 of the plan.');
    expect(paged).toMatch(/lines \d+–\d+ of/);
    p.keys(END);
    expect(p.screen()).toContain('Step 100 of the plan.');
    p.keys(PGUP);
    expect(p.screen()).toContain('Step 96 of the plan.');
    p.keys(HOME);
    expect(p.screen()).toContain('Step 1 of the plan.');
    // Scrolling never answers.
    expect(p.request.isPending).toBe(true);
  });

  it('shows a hostile plan inert: escapes, the title sequence and bidi overrides are visible text', () => {
    const hostile = '# Plan\x1b]0;pwned\x07\n\n1. \x1b[2J\x1b[31mred\x1b[0m \u202eevil\n2. \x9b2J done\n';
    const p = panel(hostile, {
      options: planQuestion([
        { label: 'Go\x1b[1A', description: '\x1b[2K' },
        { label: 'Stop', description: '' },
      ]),
    });
    p.arm();
    const shown = p.screen();
    // biome-ignore lint/suspicious/noControlCharactersInRegex: no escape may reach the terminal
    expect(shown).not.toMatch(/[\x1b\x07\x9b\u202e]/);
    expect(shown).toContain('␛]0;pwned␇');
    expect(shown).toContain('␛[2J␛[31mred␛[0m ⟨U+202E⟩evil');
    expect(shown).toContain('1. Go␛[1A — ␛[2K');
  });

  it('on a real terminal (headless xterm): the hostile plan moves nothing, the panel fits the screen', async () => {
    const terminal = new HeadlessTerminal(70, 20);
    const tui = new TUI(terminal);
    const style = tuiStyle(true);
    const content = `Top line\n\n${'\x1b[2J\x1b[H\x1b[1Amoved?\n\n'.repeat(3)}${Array.from({ length: 40 }, (_, i) => `- item ${i}`).join('\n')}`;
    const request = new QuestionRequest({ id: 'q', tool_call_id: 'c', questions: [planQuestion()] });
    const plan = new PlanView({ content, file_path: '/p.md' }, style);
    const view = new PlanPanel(request, plan, style, () => {}, { rows: () => terminal.rows });
    tui.addChild(view);
    tui.start();
    // Until the frame is drawn (the first writes set the terminal up).
    while (!terminal.lines().some((row) => row.includes('Esc closes'))) {
      const written = terminal.nextWrite();
      tui.requestRender();
      await written;
      await terminal.settled();
    }
    const rows = terminal.lines();
    tui.stop();
    expect(rows[1]).toContain('Plan · /p.md');
    expect(rows[2]).toContain('Top line');
    // The window (20 rows, less the editor's and the panel's own) shows the first five plan lines.
    expect(rows.slice(2, 7)).toEqual(['│ Top line', '│', '│ ␛[2J␛[H␛[1Amoved?', '│', '│ ␛[2J␛[H␛[1Amoved?']);
    expect(rows[7]).toMatch(/^ {2}lines 1–5 of \d+ · PgUp\/PgDn scroll$/);
    expect(rows.length).toBeLessThanOrEqual(20 - 6);
  });
});
