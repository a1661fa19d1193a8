import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { noHooks } from '../../hooks/types.js';
import { ScriptedProvider } from '../../kosong/providers/scripted/index.js';
import { readSessionState } from '../../session/state.js';
import { Context } from '../../soul/context/context.js';
import { DenwaRenji } from '../../soul/dmail.js';
import { runSoul } from '../../soul/run-soul.js';
import { Soul } from '../../soul/soul.js';
import { DEFAULT_LOOP_CONTROL } from '../../soul/soul-parts.js';
import type { TurnOutcome } from '../../soul/turn-outcome.js';
import { Approval } from '../../toolset/approval/approval.js';
import { KimiToolset } from '../../toolset/kimi-toolset.js';
import { toolCall } from '../../toolset/test-support/dispatch.js';
import { testPolicy } from '../../toolset/test-support/test-policy.js';
import { isRejectionWithoutFeedback, toolErrorKind } from '../../toolset/tool-errors.js';
import { QuestionRequest } from '../../wire/requests.js';
import {
  answer,
  cancelWith,
  questionUI,
  runToolsInSoul,
  wireUserChannel,
} from '../ask-user/test-support/question-ui.js';
import { APPROVE_QUESTION } from './exit-plan-mode.js';
import type { SessionPlanMode } from './plan-mode.js';
import { PlanModeInjection } from './plan-mode-injection.js';
import { type PlanFixture, planFixture } from './test-support/plan-fixture.js';

const PLAN = '# Plan\n\n1. Add the parser.\n2. Wire it in.\n';

let fixture: PlanFixture;
let planMode: SessionPlanMode;
let planPath: string;
beforeEach(async () => {
  fixture = await planFixture();
  planMode = await fixture.open();
  planPath = await planMode.enter();
  await writeFile(planPath, PLAN);
});
afterEach(async () => {
  await fixture.cleanup();
});

async function toolsetWith(approval = new Approval()): Promise<KimiToolset> {
  const toolset = new KimiToolset({ policy: testPolicy({ workDir: process.cwd(), approval }), approval });
  await toolset.loadTools(
    ['kimi-ts/tools/plan/exit-plan-mode:ExitPlanMode'],
    { planMode, userChannel: wireUserChannel },
    { baseDir: '/' },
  );
  return toolset;
}

const exitCall = (options?: unknown) =>
  toolCall('exit-1', 'ExitPlanMode', options === undefined ? {} : { options });
const pick = (label: string) => answer({ [APPROVE_QUESTION]: label });
const OPTIONS = [
  { label: 'Rewrite the parser', description: 'Cleaner, takes longer.' },
  { label: 'Patch the parser (Recommended)', description: 'Quick and safe.' },
];

describe('ExitPlanMode', () => {
  it('shows the plan, asks for approval, and on Approve leaves plan mode with the plan in its result', async () => {
    const { ui, seen, questions } = questionUI(() => pick('Approve'));
    const { results } = await runToolsInSoul(await toolsetWith(), [exitCall()], ui);

    const display = seen.findIndex((m) => m.type === 'PlanDisplay');
    const question = seen.findIndex((m) => m instanceof QuestionRequest);
    expect(display).toBeGreaterThanOrEqual(0);
    expect(display).toBeLessThan(question);
    expect(seen[display]).toEqual({ type: 'PlanDisplay', payload: { content: PLAN, file_path: planPath } });
    expect(questions[0]!.payload.questions).toEqual([
      expect.objectContaining({
        question: APPROVE_QUESTION,
        header: 'Plan',
        options: [
          expect.objectContaining({ label: 'Approve' }),
          expect.objectContaining({ label: 'Reject' }),
          expect.objectContaining({ label: 'Reject and Exit' }),
        ],
        other_label: 'Revise',
      }),
    ]);

    const value = results[0]!.return_value;
    expect(value).toMatchObject({ is_error: false, message: 'Plan approved' });
    expect(value.output).toContain(`Plan file: ${planPath}`);
    expect(value.output).toContain(`## Approved Plan:\n${PLAN}`);
    expect(planMode.isActive()).toBe(false);
    expect((await readSessionState(fixture.statePath)).plan_mode).toBe(false);
  });

  it('offers the given approaches and tells the model to carry out only the chosen one', async () => {
    const { ui, questions } = questionUI(() => pick('Patch the parser (Recommended)'));
    const { results } = await runToolsInSoul(await toolsetWith(), [exitCall(OPTIONS)], ui);
    expect(questions[0]!.payload.questions[0]!.options.map((o) => o.label)).toEqual([
      'Rewrite the parser',
      'Patch the parser (Recommended)',
      'Reject',
      'Reject and Exit',
    ]);
    const value = results[0]!.return_value;
    expect(value.message).toBe('Plan approved: Patch the parser (Recommended)');
    expect(value.output).toContain('carry out ONLY the selected approach "Patch the parser (Recommended)"');
    expect(planMode.isActive()).toBe(false);
  });

  it('treats a single option as a plain plan', async () => {
    const { ui, questions } = questionUI(() => pick('Approve'));
    await runToolsInSoul(await toolsetWith(), [exitCall([OPTIONS[0]])], ui);
    expect(questions[0]!.payload.questions[0]!.options.map((o) => o.label)).toEqual([
      'Approve',
      'Reject',
      'Reject and Exit',
    ]);
  });

  it('Reject keeps plan mode and is a rejection that ends the turn', async () => {
    const { ui } = questionUI(() => pick('Reject'));
    const { results } = await runToolsInSoul(await toolsetWith(), [exitCall()], ui);
    const value = results[0]!.return_value;
    expect(toolErrorKind(value)).toBe('rejected');
    expect(isRejectionWithoutFeedback(value)).toBe(true);
    expect(value.display).toEqual([{ type: 'brief', text: 'Plan rejected' }]);
    expect(planMode.isActive()).toBe(true);
  });

  it('Reject and Exit leaves plan mode and is a rejection too', async () => {
    const { ui } = questionUI(() => pick('Reject and Exit'));
    const { results } = await runToolsInSoul(await toolsetWith(), [exitCall()], ui);
    expect(isRejectionWithoutFeedback(results[0]!.return_value)).toBe(true);
    expect(results[0]!.return_value.message).toMatch(/left plan mode/);
    expect(planMode.isActive()).toBe(false);
  });

  it('free text asks for a revision and stays in plan mode; dismissal changes nothing', async () => {
    const revise = questionUI(() => pick('Also cover the error paths'));
    const revised = await runToolsInSoul(await toolsetWith(), [exitCall(OPTIONS)], revise.ui);
    expect(revised.results[0]!.return_value).toMatchObject({
      is_error: false,
      message: 'Plan revision requested',
    });
    expect(revised.results[0]!.return_value.output).toMatch(/User feedback: Also cover the error paths$/);
    expect(planMode.isActive()).toBe(true);

    const dismiss = questionUI(() => answer({}));
    const dismissed = await runToolsInSoul(await toolsetWith(), [exitCall()], dismiss.ui);
    expect(dismissed.results[0]!.return_value).toMatchObject({ is_error: false, message: 'Dismissed' });
    expect(planMode.isActive()).toBe(true);
  });

  it('approves on its own when no user is present, but still asks in yolo mode', async () => {
    const afk = questionUI(() => pick('Reject'));
    const auto = await runToolsInSoul(
      await toolsetWith(new Approval({ state: { afk: true } })),
      [exitCall()],
      afk.ui,
    );
    expect(afk.seen.filter((m) => m.type === 'PlanDisplay' || m instanceof QuestionRequest)).toEqual([]);
    expect(auto.results[0]!.return_value.message).toBe('Plan approved (afk)');
    expect(auto.results[0]!.return_value.output).toContain(`## Approved Plan:\n${PLAN}`);
    expect(planMode.isActive()).toBe(false);

    await planMode.enter();
    await writeFile(planMode.planFilePath()!, PLAN);
    const yolo = questionUI(() => pick('Reject'));
    await runToolsInSoul(await toolsetWith(new Approval({ state: { yolo: true } })), [exitCall()], yolo.ui);
    expect(yolo.questions).toHaveLength(1);
    expect(planMode.isActive()).toBe(true);
  });

  it('refuses outside plan mode and without a plan', async () => {
    const { ui, questions } = questionUI(() => pick('Approve'));
    const toolset = await toolsetWith();
    await writeFile(planPath, '  \n');
    const empty = await runToolsInSoul(toolset, [exitCall()], ui);
    expect(empty.results[0]!.return_value).toMatchObject({ is_error: true });
    expect(empty.results[0]!.return_value.message).toContain(`Write your plan to ${planPath} first`);

    await planMode.exit();
    const outside = await runToolsInSoul(toolset, [exitCall()], ui);
    expect(outside.results[0]!.return_value.display).toEqual([{ type: 'brief', text: 'Not in plan mode' }]);

    await planMode.enter();
    const missing = await runToolsInSoul(toolset, [exitCall()], ui);
    expect(missing.results[0]!.return_value.display).toEqual([{ type: 'brief', text: 'No plan file' }]);
    expect(questions).toHaveLength(0);
  });

  it('refuses more than 3 options, reserved labels and duplicate labels', async () => {
    const toolset = await toolsetWith();
    const { ui, questions } = questionUI(() => pick('Approve'));
    const bad = [
      [...OPTIONS, { label: 'C' }, { label: 'D' }],
      [{ label: 'approve' }, { label: 'B' }],
      [{ label: 'A' }, { label: ' Reject and Exit ' }],
      [{ label: 'A' }, { label: 'REVISE' }],
      [{ label: 'Same' }, { label: 'Same' }],
    ];
    for (const options of bad) {
      const { results } = await runToolsInSoul(toolset, [exitCall(options)], ui);
      expect(toolErrorKind(results[0]!.return_value)).toBe('validate');
    }
    expect(questions).toHaveLength(0);
    const three = await runToolsInSoul(toolset, [exitCall([...OPTIONS, { label: 'Third' }])], ui);
    expect(three.results[0]!.return_value.is_error).toBe(false);
  });

  it('tells the model when the client does not support plan mode', async () => {
    const { ui } = questionUI(() => cancelWith('The wire client does not support questions.'));
    const { results } = await runToolsInSoul(await toolsetWith(), [exitCall()], ui);
    expect(results[0]!.return_value.message).toMatch(
      /does not support plan mode\. Do NOT call this tool again/,
    );
    expect(planMode.isActive()).toBe(true);
  });
});

describe('plan mode in a soul turn', () => {
  it('reminds the model, and a rejected plan ends the turn without another step', async () => {
    const context = await Context.restore(join(fixture.dir, 'context.jsonl'));
    await context.writeSystemPrompt('You plan.');
    const provider = new ScriptedProvider([
      `tool_call: ${JSON.stringify({ id: 'x1', name: 'ExitPlanMode', arguments: '{}' })}`,
      'text: this step must not run',
    ]);
    const soul = new Soul({
      llm: { provider, maxContextSize: 100_000, capabilities: new Set() },
      context,
      toolset: await toolsetWith(),
      systemPrompt: 'You plan.',
      loopControl: DEFAULT_LOOP_CONTROL,
      hooks: noHooks,
      denwaRenji: new DenwaRenji(),
      isRoot: true,
      injections: [new PlanModeInjection(planMode, () => false)],
      planMode: () => planMode.isActive(),
      sleep: async () => {},
    });
    const { ui, seen } = questionUI(() => pick('Reject'));
    let outcome: TurnOutcome | undefined;
    await runSoul(
      async (signal) => {
        outcome = await soul.run('plan the parser work', signal);
      },
      ui,
      new AbortController().signal,
    );
    expect(outcome).toMatchObject({ stopReason: 'tool_rejected', stepCount: 1 });
    expect(seen.some((m) => m.type === 'StatusUpdate' && m.payload.plan_mode === true)).toBe(true);
    const reminder = context.history.find(
      (m) =>
        m.role === 'user' &&
        m.content.some((p) => p.type === 'text' && p.text.includes('Plan mode is active.')),
    );
    expect(reminder?.content[0]).toMatchObject({ type: 'text' });
    expect(JSON.stringify(reminder)).toContain(planPath);
    expect(planMode.isActive()).toBe(true);
  });
});
