import { z } from 'zod';
import { type ToolReturnValue, toolError } from '../../kosong/index.js';
import type { Approval } from '../../toolset/approval/approval.js';
import { declareParameters } from '../../toolset/declared-parameters.js';
import { toolFactory } from '../../toolset/loading/dependencies.js';
import { loadToolDescription } from '../../toolset/loading/tool-description.js';
import { defineTool, type KimiTool } from '../../toolset/tool-definition.js';
import { toolRejectedError } from '../../toolset/tool-errors.js';
import { answerTo, askUser, questionItem } from '../ask-user/ask-question.js';
import type { PlanModeController } from '../runtime.js';
import type { UserChannel } from '../user-channel.js';

export const APPROVE_QUESTION = 'Approve this plan?';
export const APPROVE = 'Approve';
export const REJECT = 'Reject';
export const REJECT_AND_EXIT = 'Reject and Exit';
/** The label of the free-text answer: whatever the user types is feedback for a revision. */
export const REVISE = 'Revise';

const RESERVED_LABELS = new Set(
  [APPROVE, REJECT, REJECT_AND_EXIT, REVISE].map((label) => label.toLowerCase()),
);

const params = declareParameters('ExitPlanMode', () => {
  const optionSchema = z.object({
    label: z
      .string()
      .min(1)
      .refine((label) => !RESERVED_LABELS.has(label.trim().toLowerCase()), {
        message: `"Approve", "Reject", "Reject and Exit" and "Revise" are reserved and cannot be option labels`,
      })
      .describe("A short name for the approach (1-8 words); append '(Recommended)' to the one you suggest."),
    description: z.string().default('').describe('A one-line summary of the approach and its trade-offs.'),
  });
  return z.object({
    options: z
      .array(optionSchema)
      .max(3)
      .refine((options) => new Set(options.map((o) => o.label.trim())).size === options.length, {
        message: 'option labels must be unique',
      })
      .nullable()
      .default(null)
      .describe(
        'When the plan describes alternative approaches, list them here (2-3) so the user can pick the one to carry out. Leave out for a plan with a single approach.',
      ),
  });
});

type PlanOption = NonNullable<z.output<ReturnType<typeof params.schema>>['options']>[number];

function ok(output: string, message: string): ToolReturnValue {
  return { is_error: false, output, message, display: [{ type: 'brief', text: message }] };
}

/** A rejection tagged like the toolset's own, so the soul ends the root turn on it. */
function planRejected(message: string, brief: string): ToolReturnValue {
  return { ...toolRejectedError(), message, display: [{ type: 'brief', text: brief }] };
}

function approvedPlan(path: string, plan: string, note: string, chosen: string | null): string {
  const selection = chosen
    ? `IMPORTANT: carry out ONLY the selected approach "${chosen}" and ignore the other approaches in the plan.\n\n`
    : '';
  return `${note}\nPlan mode is off; all tools are available again.\nPlan file: ${path}\n\n${selection}## Approved Plan:\n${plan}`;
}

/** Plan mode changes only mode state, so the tool is read-only; it asks the user itself. */
export function createExitPlanMode(
  planMode: PlanModeController,
  approval: Approval,
  user: UserChannel,
  description: string,
): KimiTool<z.output<ReturnType<typeof params.schema>>> {
  return defineTool({
    name: 'ExitPlanMode',
    description,
    params,
    effect: 'read-only',
    call: async ({ options }, ctx) => {
      if (!planMode.isActive()) {
        return toolError(
          'Plan mode is not on. ExitPlanMode only works while plan mode is active.',
          'Not in plan mode',
        );
      }
      const path = planMode.planFilePath();
      const plan = await planMode.readPlan();
      if (!path || !plan?.trim()) {
        return toolError(
          `There is no plan yet. Write your plan to ${path ?? 'the plan file'} first, then call ExitPlanMode.`,
          'No plan file',
        );
      }
      const choices: PlanOption[] | null = options && options.length >= 2 ? options : null;

      if (approval.afk || approval.runtimeAfk) {
        await planMode.exit();
        const note = choices
          ? 'Plan approved automatically: no user is present (afk mode), so nobody chose between the approaches. Carry out the one you recommend.'
          : 'Plan approved automatically: no user is present (afk mode).';
        return ok(approvedPlan(path, plan, note, null), 'Plan approved (afk)');
      }

      user.showPlan({ content: plan, filePath: path, run: ctx.run });
      const outcome = await askUser(
        user,
        [
          questionItem({
            question: APPROVE_QUESTION,
            header: 'Plan',
            options: [
              ...(
                choices ?? [
                  { label: APPROVE, description: 'Leave plan mode and start carrying out the plan' },
                ]
              ).map(({ label, description }) => ({ label, description })),
              { label: REJECT, description: 'Stay in plan mode and talk it over' },
              { label: REJECT_AND_EXIT, description: 'Leave plan mode without carrying out the plan' },
            ],
            other_label: REVISE,
            other_description: 'Stay in plan mode and say what to change',
          }),
        ],
        ctx,
      );
      switch (outcome.status) {
        case 'unsupported':
          return toolError(
            'The connected client does not support plan mode. Do NOT call this tool again.',
            'Client unsupported',
          );
        case 'no_user_interface':
          return toolError('Cannot present the plan: no user interface is connected.', 'Wire unavailable');
        case 'dismissed':
          return ok(
            'The user closed the plan review without choosing. Plan mode stays on: keep working on the plan, or call ExitPlanMode again when it is ready.',
            'Dismissed',
          );
        case 'answered':
          break;
      }
      const choice = answerTo(outcome.answers, APPROVE_QUESTION) ?? '';
      if (choice === REJECT) {
        return planRejected(
          "The user rejected the plan. Plan mode stays on. Wait for the user's next message before revising the plan.",
          'Plan rejected',
        );
      }
      if (choice === REJECT_AND_EXIT) {
        await planMode.exit();
        return planRejected(
          "The user rejected the plan and left plan mode. Do not carry out the plan; wait for the user's next message.",
          'Plan rejected, plan mode off',
        );
      }
      const chosen = choices?.find((option) => option.label === choice)?.label ?? null;
      if (chosen !== null || (choices === null && choice === APPROVE)) {
        await planMode.exit();
        return ok(
          approvedPlan(path, plan, 'The user approved the plan.', chosen),
          chosen ? `Plan approved: ${chosen}` : 'Plan approved',
        );
      }
      const feedback = choice.trim();
      return ok(
        `The user wants the plan revised. Plan mode stays on: change the plan as asked, then call ExitPlanMode again.${feedback ? `\n\nUser feedback: ${feedback}` : ''}`,
        'Plan revision requested',
      );
    },
  });
}

export const ExitPlanMode = toolFactory(
  ['planMode', 'approval', 'userChannel'],
  async ({ planMode, approval, userChannel }) =>
    createExitPlanMode(
      planMode,
      approval,
      userChannel,
      await loadToolDescription(new URL('./exit-plan-mode.md', import.meta.url)),
    ),
);
