import { z } from 'zod';
import { type ToolReturnValue, toolError } from '../../kosong/index.js';
import type { Approval } from '../../toolset/approval/approval.js';
import { declareParameters } from '../../toolset/declared-parameters.js';
import { toolFactory } from '../../toolset/loading/dependencies.js';
import { loadToolDescription } from '../../toolset/loading/tool-description.js';
import { defineTool, type KimiTool } from '../../toolset/tool-definition.js';
import type { UserChannel } from '../user-channel.js';
import { askUser, questionItem } from './ask-question.js';

const params = declareParameters('AskUserQuestion', () => {
  const optionSchema = z.object({
    label: z
      .string()
      .min(1)
      .describe("What the user picks: 1-5 words. Append '(Recommended)' to the one you suggest."),
    description: z.string().default('').describe('What choosing this option means, or its trade-offs.'),
  });
  const questionSchema = z.object({
    question: z.string().min(1).describe('One specific question, ending with a question mark.'),
    header: z
      .string()
      .default('')
      .describe("A short tag shown above the question, at most 12 characters (e.g. 'Database')."),
    options: z
      .array(optionSchema)
      .min(2)
      .max(4)
      .describe(
        '2-4 distinct choices. Do not add an "Other" choice: the user can always type their own answer.',
      ),
    multi_select: z.boolean().default(false).describe('Whether the user may pick more than one option.'),
  });
  return z.object({
    questions: z.array(questionSchema).min(1).max(4).describe('The questions to ask (1-4).'),
  });
});

/** The note returned when no user is present (afk); the model must decide on its own. */
export const AFK_NOTE = 'Running in afk mode: no user is present to answer. Make the decision yourself.';

export function createAskUserQuestion(
  approval: Approval,
  user: UserChannel,
  description: string,
): KimiTool<z.output<ReturnType<typeof params.schema>>> {
  return defineTool({
    name: 'AskUserQuestion',
    description,
    params,
    // Asking changes nothing; the question itself is the interaction with the user.
    effect: 'read-only',
    call: async ({ questions }, ctx): Promise<ToolReturnValue> => {
      // Yolo alone still asks: it approves actions, it does not mean the user is away.
      if (approval.afk || approval.runtimeAfk) {
        return {
          is_error: false,
          output: JSON.stringify({ answers: {}, note: AFK_NOTE }),
          message: 'No user present (afk): decide on your own.',
          display: [{ type: 'brief', text: 'No user present' }],
        };
      }
      const outcome = await askUser(
        user,
        questions.map((q) =>
          questionItem({
            question: q.question,
            header: q.header,
            options: q.options.map(({ label, description }) => ({ label, description })),
            multi_select: q.multi_select,
          }),
        ),
        ctx,
      );
      switch (outcome.status) {
        case 'answered':
          return {
            is_error: false,
            output: JSON.stringify({ answers: outcome.answers }),
            message: 'User has answered.',
            display: [{ type: 'brief', text: 'User answered' }],
          };
        case 'dismissed':
          return {
            is_error: false,
            output: JSON.stringify({
              answers: {},
              note: 'User dismissed the question without answering. Do not assume an answer; wait for the user to say how to continue.',
            }),
            message: 'User dismissed the question without answering.',
            display: [{ type: 'brief', text: 'User dismissed' }],
          };
        case 'unsupported':
          return toolError(
            'The connected client cannot show interactive questions. Do NOT call this tool again; ask the user in your text reply instead.',
            'Client unsupported',
          );
        case 'no_user_interface':
          return toolError(
            'Cannot ask the user: no user interface is connected to this run.',
            'Wire unavailable',
          );
      }
    },
  });
}

export const AskUserQuestion = toolFactory(['approval', 'userChannel'], async ({ approval, userChannel }) =>
  createAskUserQuestion(
    approval,
    userChannel,
    await loadToolDescription(new URL('./ask-user-question.md', import.meta.url)),
  ),
);
