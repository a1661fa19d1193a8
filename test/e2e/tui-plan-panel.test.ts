import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScriptedTurn } from '../support/scripted-llm-server.js';
import { onlySessionDir } from '../support/session-files.js';
import type { TmuxTerminal } from '../support/tmux-terminal.js';
import { TUI_PANEL_ARMED } from '../support/tmux-terminal.js';
import { useTuiCli } from '../support/tui-cli.js';

const cli = useTuiCli();

const exitPlanMode: ScriptedTurn = { toolCalls: [{ id: 'x1', name: 'ExitPlanMode', args: {} }] };
const PLAN = '# Fix the parser\n\n1. **Read** `parse.ts`\n2. Add a failing test\n3. Fix it\n';

/** The status line (the last line of the screen) once the session is built. */
const statusLine = (screen: string) => screen.split('\n').at(-1) ?? '';
const inPlanMode = (screen: string) => / · plan · /.test(statusLine(screen));

async function state(): Promise<{ plan_mode: boolean; plan_slug: string }> {
  return JSON.parse(await readFile(join(await onlySessionDir(cli.sandbox.home), 'state.json'), 'utf8'));
}

/**
 * Starts the TUI in plan mode (`--plan`) and writes `plan` to the plan file plan mode named, as the
 * model would have; returns the terminal and the plan file.
 */
async function startPlanning(turns: ScriptedTurn[], plan = PLAN, size: { height?: number } = {}) {
  const tui = await cli.startWith(turns, { args: ['--plan'], ...size });
  await tui.waitUntil(inPlanMode, 'the plan badge');
  const planFile = join(cli.sandbox.home, 'plans', `${(await state()).plan_slug}.md`);
  await mkdir(join(cli.sandbox.home, 'plans'), { recursive: true });
  await writeFile(planFile, plan);
  return { tui, planFile };
}

const bodyOf = (index: number) => JSON.stringify(cli.server.requests[index]?.body ?? null);

/** Asks for the plan and waits until its panel takes keys. */
async function askForApproval(tui: TmuxTerminal): Promise<string> {
  tui.type('plan the fix');
  tui.press('Enter');
  return tui.waitFor(TUI_PANEL_ARMED);
}

describe('terminal UI: the plan panel', () => {
  it('shows the plan (Markdown) with its file and the choices; 1 approves and leaves plan mode', async () => {
    const { tui, planFile } = await startPlanning([exitPlanMode, { text: 'Carrying out the plan.' }]);
    const panel = await askForApproval(tui);
    expect(panel).toContain(`Plan · ${planFile}`);
    expect(panel).toContain('│ Fix the parser');
    expect(panel).toMatch(/│ 1\. Read parse\.ts/);
    expect(panel).not.toContain('**Read**');
    expect(panel).toContain('? Approve this plan?');
    expect(panel).toMatch(
      /1\. Approve — .*\n {2}2\. Reject — .*\n {2}3\. Reject and Exit — .*\n {2}4\. Revise — /,
    );
    // The plan is in the panel, not also above it.
    expect(panel.match(/Fix the parser/g)).toHaveLength(1);
    tui.type('1');
    await tui.waitFor('Carrying out the plan.');
    expect(bodyOf(1)).toContain('The user approved the plan.');
    await tui.waitForIdle();
    const after = await tui.waitUntil((s) => !inPlanMode(s), 'the plan badge gone');
    expect((await state()).plan_mode).toBe(false);
    // The conversation keeps the plan with the answer.
    expect(after).toContain('│ Fix the parser');
    expect(after).toContain('→ Approve');
  });

  it('2 rejects: plan mode stays on and the turn ends', async () => {
    const { tui } = await startPlanning([exitPlanMode]);
    await askForApproval(tui);
    tui.press('Down', 'Enter');
    await tui.waitFor('→ Reject');
    await tui.waitForIdle();
    expect(inPlanMode(tui.screen())).toBe(true);
    expect((await state()).plan_mode).toBe(true);
    // A rejection ends the turn: the model is not asked again.
    expect(cli.server.requests).toHaveLength(1);
  });

  it('4 revises with the text typed: the model reads it and plan mode stays on', async () => {
    const { tui } = await startPlanning([exitPlanMode, { text: 'I will revise it.' }]);
    await askForApproval(tui);
    tui.type('4');
    await tui.waitFor('What should change in the plan?');
    tui.type('add a regression test for empty input');
    tui.press('Enter');
    await tui.waitFor('I will revise it.');
    expect(bodyOf(1)).toContain('User feedback: add a regression test for empty input');
    expect(tui.screen()).toContain('→ Revise: add a regression test for empty input');
    await tui.waitForIdle();
    expect((await state()).plan_mode).toBe(true);
  });

  it('a long plan stays within the screen and scrolls with PgDn/PgUp', async () => {
    const plan = Array.from({ length: 80 }, (_, i) => `- step ${i + 1} of a long plan`).join('\n');
    const { tui } = await startPlanning([exitPlanMode, { text: 'Approved, going.' }], plan, { height: 30 });
    const panel = await askForApproval(tui);
    expect(panel).toContain('step 1 of a long plan');
    expect(panel).not.toContain('step 60 of a long plan');
    expect(panel).toMatch(/lines 1–\d+ of 80 · PgUp\/PgDn scroll/);
    // The panel and the prompt fit the screen: the choices and the status line are on it.
    expect(panel).toContain('4. Revise');
    expect(statusLine(panel)).toContain('cost n/a');
    tui.press('NPage');
    // (Waiting for the whole frame: tmux may show one half drawn.)
    const firstShown = (s: string) => /lines (\d+)–\d+ of 80/.exec(s)?.[1];
    const paged = await tui.waitUntil((s) => (firstShown(s) ?? '1') !== '1', 'the next page');
    expect(paged).not.toContain('step 1 of a long plan');
    tui.press('End');
    const end = await tui.waitUntil(
      (s) => s.includes('step 80 of a long plan') && firstShown(s) !== undefined,
      'the last page',
    );
    const atEnd = firstShown(end);
    tui.press('PPage');
    await tui.waitUntil((s) => {
      const first = firstShown(s);
      return first !== undefined && first !== atEnd && !s.includes('step 80 of a long plan');
    }, 'the page before');
    // Scrolling never answered: the choice is still to be made.
    expect(cli.server.requests).toHaveLength(1);
    tui.type('1');
    await tui.waitFor('Approved, going.');
  });

  it('a hostile plan stays inert: its escape sequences show as text and change nothing', async () => {
    const hostile =
      '# Plan\x1b]0;pwned\x07\n\n1. \x1b[2J\x1b[H\x1b[31mred\x1b[0m and \x1b[1A up, bell\x07\n2. \u202eevil\n';
    const { tui } = await startPlanning([exitPlanMode, { text: 'Fine.' }], hostile);
    const panel = await askForApproval(tui);
    expect(panel).toContain('Plan␛]0;pwned␇');
    expect(panel).toContain('␛[2J␛[H␛[31mred␛[0m and ␛[1A up, bell␇');
    expect(panel).toContain('⟨U+202E⟩evil');
    // The screen was not cleared (the greeting is still there) and the title is untouched.
    expect(panel).toContain('kimi-ts — session');
    expect(tui.title()).not.toContain('pwned');
    tui.type('1');
    await tui.waitFor('Fine.');
  });

  it('Ctrl-C while the panel is up cancels the turn: the panel goes, the plan stays in the conversation', async () => {
    const { tui } = await startPlanning([exitPlanMode]);
    await askForApproval(tui);
    tui.press('C-c');
    const after = await tui.waitFor('(interrupted)');
    await tui.waitForIdle();
    expect(after).not.toContain('↑/↓ + Enter, or a number');
    expect(after).toContain('│ Fix the parser');
    expect(after).toContain('→ closed without an answer');
    expect((await state()).plan_mode).toBe(true);
    // The prompt has the keys again.
    tui.type('/exit');
    tui.press('Enter');
    expect(await tui.waitForExit()).toBe(0);
  });

  it('keys typed before the panel appeared never answer it', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The model thinks, and is held there: the call that shows the panel comes once released.
    const { tui } = await startPlanning([
      { ...exitPlanMode, think: 'Time to show the plan.', holdAfterThinking: held },
      { text: 'Rejected and out.' },
    ]);
    tui.type('plan the fix');
    tui.press('Enter');
    await tui.waitFor('Time to show the plan.');
    // While the model still streams, the user types what would approve the plan.
    tui.type('1');
    tui.press('Enter');
    // Taken as typed before the panel came (queued as the next prompt), not left to race it.
    await tui.waitFor('queued: 1');
    release();
    const panel = await tui.waitFor(TUI_PANEL_ARMED);
    expect(panel).toContain('1. Approve');
    expect(cli.server.requests).toHaveLength(1);
    expect((await state()).plan_mode).toBe(true);
    tui.type('3');
    await tui.waitFor('→ Reject and Exit');
    // The early line was queued as the next prompt (Enter while a turn runs), not taken as an answer.
    await tui.waitFor('Rejected and out.');
    expect((await state()).plan_mode).toBe(false);
    expect(cli.server.requests).toHaveLength(2);
    expect(bodyOf(1)).toMatch(/"role":"user","content":"1"/);
  });
});
