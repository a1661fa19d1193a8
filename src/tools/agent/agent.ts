import { z } from 'zod';
import { toolError } from '../../kosong/index.js';
import { declareParameters } from '../../toolset/declared-parameters.js';
import { toolFactory } from '../../toolset/loading/dependencies.js';
import { loadToolDescription } from '../../toolset/loading/tool-description.js';
import { defineTool } from '../../toolset/tool-definition.js';
import type { SubagentRunner } from '../runtime.js';
import { isolationParam } from './isolation-param.js';

/** Kimi CLI's bounds for an explicit subagent timeout, in seconds. */
export const AGENT_TIMEOUT_MIN_S = 30;
export const AGENT_TIMEOUT_MAX_S = 3600;

const params = declareParameters('Agent', () =>
  z.object({
    description: z.string().describe('A short (3-5 words) label of the task.'),
    prompt: z.string().describe('The complete task for the subagent, or the follow-up when resuming.'),
    subagent_type: z.string().default('coder').describe('Which subagent type to launch.'),
    model: z
      .string()
      .nullable()
      .default(null)
      .describe("Alias of a configured model; default: the type's model, else the current one."),
    resume: z
      .string()
      .nullable()
      .default(null)
      .describe('The agent_id of an earlier subagent to continue, with its context.'),
    run_in_background: z
      .boolean()
      .default(false)
      .describe('Run as a background task and return its task id at once.'),
    timeout: z
      .number()
      .int()
      .min(AGENT_TIMEOUT_MIN_S)
      .max(AGENT_TIMEOUT_MAX_S)
      .nullable()
      .default(null)
      .describe('Seconds the subagent may run (30-3600).'),
    isolation: isolationParam(),
  }),
);

/**
 * Delegates a task to a subagent (reference §1.11). Launching asks nothing: the subagent's own
 * side-effecting tools ask the user. Only the root agent may launch; the runner owns the souls.
 */
export const Agent = toolFactory(['subagents', 'role'], async ({ subagents, role }) =>
  defineTool({
    name: 'Agent',
    description: await loadToolDescription(new URL('./agent.md', import.meta.url), {
      SUBAGENT_TYPES: describeSubagentTypes(subagents.types),
    }),
    params,
    effect: 'read-only',
    call: async (p, ctx) => {
      if (role !== 'root') return toolError('Subagents cannot launch other subagents.', 'Agent unavailable');
      const result = await subagents.run({
        description: p.description,
        prompt: p.prompt,
        subagentType: p.subagent_type,
        model: p.model,
        resume: p.resume,
        runInBackground: p.run_in_background,
        timeoutS: p.timeout,
        isolation: p.isolation,
        parentToolCallId: ctx.toolCall.id,
        signal: ctx.signal,
        parentRun: ctx.run,
      });
      return {
        is_error: result.isError,
        output: result.output,
        message: result.message,
        display: result.brief ? [{ type: 'brief', text: result.brief }] : [],
      };
    },
  }),
);

/** The subagent types as the Agent and AgentSwarm descriptions list them. */
export function describeSubagentTypes(types: SubagentRunner['types']): string {
  if (types.length === 0) return '(none configured)';
  return types
    .map((type) => {
      const lines = [`- \`${type.name}\`: ${type.description}`];
      if (type.whenToUse) lines.push(`  When to use: ${type.whenToUse}`);
      return lines.join('\n');
    })
    .join('\n');
}
