import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readSessionState } from '../../session/state.js';
import { Approval } from '../../toolset/approval/approval.js';
import { KimiToolset } from '../../toolset/kimi-toolset.js';
import { toolCall } from '../../toolset/test-support/dispatch.js';
import { testPolicy } from '../../toolset/test-support/test-policy.js';
import { toolErrorKind } from '../../toolset/tool-errors.js';
import {
  answer,
  cancelWith,
  leaveOpen,
  questionUI,
  runToolsInSoul,
  wireUserChannel,
} from '../ask-user/test-support/question-ui.js';
import { ENTER_QUESTION } from './enter-plan-mode.js';
import type { SessionPlanMode } from './plan-mode.js';
import { type PlanFixture, planFixture } from './test-support/plan-fixture.js';

let fixture: PlanFixture;
let planMode: SessionPlanMode;
beforeEach(async () => {
  fixture = await planFixture();
  planMode = await fixture.open();
});
afterEach(async () => {
  await fixture.cleanup();
});

async function toolsetWith(approval = new Approval()): Promise<KimiToolset> {
  const toolset = new KimiToolset({ policy: testPolicy({ workDir: process.cwd(), approval }), approval });
  await toolset.loadTools(
    ['kimi-ts/tools/plan/enter-plan-mode:EnterPlanMode'],
    { planMode, userChannel: wireUserChannel },
    { baseDir: '/' },
  );
  return toolset;
}

const enter = () => toolCall('enter-1', 'EnterPlanMode', {});

describe('EnterPlanMode', () => {
  it('asks the user and enters plan mode on Yes, giving the plan file path', async () => {
    const { ui, questions } = questionUI(() => answer({ [ENTER_QUESTION]: 'Yes' }));
    const { results } = await runToolsInSoul(await toolsetWith(), [enter()], ui);
    expect(questions[0]!.payload).toMatchObject({
      tool_call_id: 'enter-1',
      questions: [
        {
          question: ENTER_QUESTION,
          header: 'Plan Mode',
          options: [{ label: 'Yes' }, { label: 'No' }],
          multi_select: false,
        },
      ],
    });
    const value = results[0]!.return_value;
    expect(value).toMatchObject({ is_error: false, message: 'Plan mode on' });
    expect(planMode.isActive()).toBe(true);
    expect(value.output).toContain(`Plan file: ${planMode.planFilePath()}`);
    expect((await readSessionState(fixture.statePath)).plan_mode).toBe(true);
    // Entering through the tool does not add the activation reminder on top of its own result.
    expect(planMode.consumeActivationReminder()).toBe(false);
  });

  it('stays out of plan mode when the user says No or dismisses the prompt', async () => {
    for (const [answers, message] of [
      [{ [ENTER_QUESTION]: 'No' }, 'Declined'],
      [{}, 'Dismissed'],
    ] as const) {
      const { ui } = questionUI(() => answer(answers));
      const { results } = await runToolsInSoul(await toolsetWith(), [enter()], ui);
      expect(results[0]!.return_value).toMatchObject({ is_error: false, message });
      expect(planMode.isActive()).toBe(false);
    }
  });

  it('enters without asking in yolo and afk mode', async () => {
    const runtimeAfk = new Approval();
    runtimeAfk.setRuntimeAfk(true);
    for (const approval of [
      new Approval({ state: { yolo: true } }),
      new Approval({ state: { afk: true } }),
      runtimeAfk,
    ]) {
      await planMode.exit();
      const { ui, questions } = questionUI(() => answer({ [ENTER_QUESTION]: 'No' }));
      const { results } = await runToolsInSoul(await toolsetWith(approval), [enter()], ui);
      expect(questions).toHaveLength(0);
      expect(results[0]!.return_value.output).toMatch(/^Plan mode activated \(auto-approved/);
      expect(planMode.isActive()).toBe(true);
    }
  });

  it('refuses when plan mode is already on', async () => {
    await planMode.enter();
    const { ui, questions } = questionUI(() => answer({}));
    const { results } = await runToolsInSoul(await toolsetWith(), [enter()], ui);
    expect(questions).toHaveLength(0);
    expect(results[0]!.return_value).toMatchObject({ is_error: true });
    expect(results[0]!.return_value.display).toEqual([{ type: 'brief', text: 'Already in plan mode' }]);
  });

  it('tells the model when the client cannot ask, and leaves plan mode off when cancelled', async () => {
    const { ui } = questionUI(() => cancelWith('The wire client does not support questions.'));
    const { results } = await runToolsInSoul(await toolsetWith(), [enter()], ui);
    expect(results[0]!.return_value.message).toBe(
      'The connected client does not support plan mode. Do NOT call this tool again.',
    );

    const cancel = new AbortController();
    const waiting = questionUI(() => {
      queueMicrotask(() => cancel.abort());
      return leaveOpen;
    });
    const cancelled = await runToolsInSoul(await toolsetWith(), [enter()], waiting.ui, cancel.signal);
    expect(toolErrorKind(cancelled.results[0]!.return_value)).toBe('cancelled');
    expect(planMode.isActive()).toBe(false);
  });
});
