import { writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message } from '../../kosong/index.js';
import { systemReminder } from '../../toolset/tool-result-message.js';
import type { SessionPlanMode } from './plan-mode.js';
import { assistantMessagesSinceLastReminder, PlanModeInjection } from './plan-mode-injection.js';
import { FULL_REMINDER_HEADING, SPARSE_REMINDER_HEADING } from './plan-reminders.js';
import { type PlanFixture, planFixture } from './test-support/plan-fixture.js';

let fixture: PlanFixture;
let planMode: SessionPlanMode;
let afk: boolean;
let injection: PlanModeInjection;
beforeEach(async () => {
  fixture = await planFixture();
  planMode = await fixture.open();
  afk = false;
  injection = new PlanModeInjection(planMode, () => afk);
});
afterEach(async () => {
  await fixture.cleanup();
});

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
const assistant = (text = 'working'): Message => ({ role: 'assistant', content: [{ type: 'text', text }] });
const tool = (): Message => ({ role: 'tool', tool_call_id: 'c', content: [{ type: 'text', text: 'ok' }] });

/** F full, S sparse, R re-entry, - nothing. */
function kindOf(text: string | null): string {
  if (text === null) return '-';
  if (text.includes('## Back in plan mode')) return 'R';
  if (text.startsWith(FULL_REMINDER_HEADING)) return 'F';
  if (text.startsWith(SPARSE_REMINDER_HEADING)) return 'S';
  return '?';
}

/**
 * Runs `steps` steps the way the soul does: the injection's reminder (if any) enters the history as
 * a user message, then the step adds an assistant message and a tool result.
 */
async function runSteps(history: Message[], steps: number): Promise<string> {
  let kinds = '';
  for (let n = 1; n <= steps; n++) {
    const text = await injection.inject({ history, stepNo: n });
    kinds += kindOf(text);
    if (text) history.push(user(systemReminder(text)));
    history.push(assistant(), tool());
  }
  return kinds;
}

describe('PlanModeInjection cadence', () => {
  it('is silent outside plan mode', async () => {
    expect(await runSteps([], 12)).toBe('-'.repeat(12));
  });

  it.each([
    // step → reminder: full on the first step, then one every 5 assistant messages, every 5th full
    [1, 'F'],
    [2, '-'],
    [5, '-'],
    [6, 'S'],
    [7, '-'],
    [11, 'S'],
    [16, 'S'],
    [21, 'S'],
    [25, '-'],
    [26, 'F'],
    [31, 'S'],
  ])('step %i gets %s', async (step, expected) => {
    await planMode.enter();
    const kinds = await runSteps([], 31);
    expect(kinds[step - 1]).toBe(expected);
  });

  it('counts assistant messages, not steps or tool results', async () => {
    await planMode.enter();
    const history: Message[] = [user('plan the migration')];
    expect(kindOf(await injection.inject({ history, stepNo: 1 }))).toBe('F');
    history.push(user(systemReminder(FULL_REMINDER_HEADING)));
    for (let i = 0; i < 12; i++) history.push(tool());
    history.push(assistant(), assistant(), assistant(), assistant());
    expect(assistantMessagesSinceLastReminder(history)).toBe(4);
    expect(await injection.inject({ history, stepNo: 2 })).toBeNull();
    history.push(assistant());
    expect(kindOf(await injection.inject({ history, stepNo: 3 }))).toBe('S');
  });

  it('starts over with a full reminder when compaction removed the earlier ones', async () => {
    await planMode.enter();
    const history: Message[] = [];
    expect(await runSteps(history, 7)).toBe('F----S-');
    injection.onCompacted();
    const compacted: Message[] = [user('summary of the conversation so far'), assistant()];
    expect(await runSteps(compacted, 6)).toBe('F----S');
  });

  it('gives the activation reminder when a UI turns plan mode on, re-entry if a plan already exists', async () => {
    const history: Message[] = [];
    await planMode.setFromUser(true);
    expect(await runSteps(history, 3)).toBe('F--');

    // A UI turns plan mode on again while a plan is on disk: the re-entry reminder, once.
    await writeFile(planMode.planFilePath()!, '# Old plan\n');
    planMode.scheduleActivationReminder();
    expect(await runSteps(history, 2)).toBe('R-');
  });

  it('drops its count when plan mode goes off, so the next plan starts with a full reminder', async () => {
    await planMode.enter();
    const history: Message[] = [];
    expect(await runSteps(history, 6)).toBe('F----S');
    await planMode.exit();
    expect(await runSteps(history, 2)).toBe('--');
    await planMode.enter();
    // The old reminder is still in the history, so the next one comes on the usual spacing, but the
    // count starts over: it is a full one.
    expect(await runSteps(history, 4)).toBe('--F-');
  });
});

describe('plan reminder texts', () => {
  it('name the plan file, say whether it exists, and differ for afk', async () => {
    const path = await planMode.enter();
    const first = (await injection.inject({ history: [], stepNo: 1 }))!;
    expect(first).toContain(`Plan file: ${path} (not created yet`);
    expect(first).toContain('AskUserQuestion (to clarify requirements) or ExitPlanMode');

    await writeFile(path, 'plan');
    afk = true;
    const again = (await injection.inject({ history: [], stepNo: 1 }))!;
    expect(again).toContain(`Plan file: ${path} (it exists`);
    expect(again).toContain('do NOT call AskUserQuestion');
    expect(again).not.toContain('AskUserQuestion (to clarify');

    const history: Message[] = [user(systemReminder(again)), ...Array(5).fill(assistant())];
    const sparse = (await injection.inject({ history, stepNo: 2 }))!;
    expect(sparse.startsWith(SPARSE_REMINDER_HEADING)).toBe(true);
    expect(sparse).toContain(`(${path})`);
    expect(sparse).toContain('Afk mode: do not call AskUserQuestion');
  });
});
