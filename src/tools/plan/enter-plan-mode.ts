import { z } from 'zod';
import { type ToolReturnValue, toolError } from '../../kosong/index.js';
import type { Approval } from '../../toolset/approval/approval.js';
import { declareParameters } from '../../toolset/declared-parameters.js';
import { toolFactory } from '../../toolset/loading/dependencies.js';
import { loadToolDescription } from '../../toolset/loading/tool-description.js';
import { defineTool, type KimiTool } from '../../toolset/tool-definition.js';
import { answerTo, askUser, questionItem } from '../ask-user/ask-question.js';
import type { PlanModeController } from '../runtime.js';
import type { UserChannel } from '../user-channel.js';

export const ENTER_QUESTION = 'Enter plan mode?';

const params = declareParameters('EnterPlanMode', () => z.object({}));

const WORKFLOW =
  'Workflow: explore with Glob, Grep and ReadFile; settle on an approach; write the plan with WriteFile; then call ExitPlanMode.';

function ok(output: string, brief: string): ToolReturnValue {
  return { is_error: false, output, message: brief, display: [{ type: 'brief', text: brief }] };
}

/** Plan mode changes only mode state, so the tool is read-only; it asks the user itself. */
export function createEnterPlanMode(
  planMode: PlanModeController,
  approval: Approval,
  user: UserChannel,
  description: string,
): KimiTool<z.output<ReturnType<typeof params.schema>>> {
  return defineTool({
    name: 'EnterPlanMode',
    description,
    params,
    effect: 'read-only',
    call: async (_params, ctx) => {
      if (planMode.isActive()) {
        return toolError(
          'Plan mode is already on. Call ExitPlanMode when your plan is ready.',
          'Already in plan mode',
        );
      }
      if (approval.isAutoApprove()) {
        const path = await planMode.enter();
        return ok(
          `Plan mode activated (auto-approved: the user was not asked). Change nothing except the plan file: read, think and plan.\nPlan file: ${path}\n${WORKFLOW}`,
          'Plan mode on',
        );
      }
      const outcome = await askUser(
        user,
        [
          questionItem({
            question: ENTER_QUESTION,
            header: 'Plan Mode',
            options: [
              { label: 'Yes', description: 'Plan first: explore the code and agree on an approach' },
              { label: 'No', description: 'Skip planning and start implementing now' },
            ],
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
          return toolError(
            'Cannot ask the user to confirm: no user interface is connected.',
            'Wire unavailable',
          );
        case 'dismissed':
          return ok(
            'The user closed the plan-mode prompt without choosing, so plan mode stays off. Go ahead with the task directly.',
            'Dismissed',
          );
        case 'answered': {
          if (answerTo(outcome.answers, ENTER_QUESTION) !== 'Yes') {
            return ok(
              'The user declined plan mode. Check with the user whether to go ahead and implement directly.',
              'Declined',
            );
          }
          const path = await planMode.enter();
          return ok(
            `Plan mode activated. Do NOT edit code files: only read and plan.\nPlan file: ${path}\n${WORKFLOW}\nDo not use AskUserQuestion to ask for approval of the plan: ExitPlanMode does that.`,
            'Plan mode on',
          );
        }
      }
    },
  });
}

export const EnterPlanMode = toolFactory(
  ['planMode', 'approval', 'userChannel'],
  async ({ planMode, approval, userChannel }) =>
    createEnterPlanMode(
      planMode,
      approval,
      userChannel,
      await loadToolDescription(new URL('./enter-plan-mode.md', import.meta.url)),
    ),
);
