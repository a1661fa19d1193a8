import { z } from 'zod';
import { toolError } from '../../kosong/index.js';
import { declareParameters } from '../../toolset/declared-parameters.js';
import { toolFactory } from '../../toolset/loading/dependencies.js';
import { loadToolDescription } from '../../toolset/loading/tool-description.js';
import { defineTool } from '../../toolset/tool-definition.js';
import { describeSubagentTypes } from './agent.js';
import { isolationParam } from './isolation-param.js';

export const PROMPT_TEMPLATE_PLACEHOLDER = '{{item}}';
/** Kimi Code's limit on the subagents of one swarm. */
export const MAX_AGENT_SWARM_SUBAGENTS = 128;
export const DEFAULT_SWARM_CONCURRENCY = 4;

const params = declareParameters('AgentSwarm', () =>
  z.object({
    description: z.string().trim().min(1).describe('Short description for the whole swarm.'),
    subagent_type: z
      .string()
      .default('coder')
      .describe('Subagent type of every new subagent (default coder).'),
    prompt_template: z
      .string()
      .optional()
      .describe(`Prompt of each new subagent; ${PROMPT_TEMPLATE_PLACEHOLDER} is replaced with its item.`),
    items: z
      .array(z.string().trim().min(1))
      .max(MAX_AGENT_SWARM_SUBAGENTS)
      .optional()
      .describe(`Values for ${PROMPT_TEMPLATE_PLACEHOLDER}: each launches one new subagent.`),
    resume_agent_ids: z
      .record(z.string().trim().min(1), z.string().trim().min(1))
      .optional()
      .describe('Existing subagent agent_id -> the prompt it resumes with; these start first.'),
    model: z.string().nullable().default(null).describe('Alias of a configured model for the new subagents.'),
    max_concurrency: z
      .number()
      .int()
      .min(1)
      .default(DEFAULT_SWARM_CONCURRENCY)
      .describe('Subagents running at once (default 4; the configuration caps it).'),
    isolation: isolationParam(),
  }),
);

type SwarmParams = z.output<ReturnType<typeof params.schema>>;

/** The swarm's prompts, or why the call is refused before anything starts (Kimi Code's checks). */
export function swarmPlan(
  p: SwarmParams,
): { items: { item: string; prompt: string }[]; resume: { agentId: string; prompt: string }[] } | string {
  const resume = Object.entries(p.resume_agent_ids ?? {}).map(([agentId, prompt]) => ({
    agentId: agentId.trim(),
    prompt: prompt.trim(),
  }));
  const items = p.items ?? [];
  if (resume.length === 0 && items.length < 2)
    return 'AgentSwarm requires at least 2 items unless resume_agent_ids is provided.';
  if (items.length + resume.length > MAX_AGENT_SWARM_SUBAGENTS)
    return `AgentSwarm supports at most ${MAX_AGENT_SWARM_SUBAGENTS} subagents.`;
  const template = p.prompt_template?.trim() ?? '';
  if (items.length > 0 && template === '') return 'prompt_template is required when items are provided.';
  if (template !== '' && !template.includes(PROMPT_TEMPLATE_PLACEHOLDER))
    return `prompt_template must include the ${PROMPT_TEMPLATE_PLACEHOLDER} placeholder.`;
  const seen = new Map<string, number>();
  const filled: { item: string; prompt: string }[] = [];
  for (const [i, item] of items.entries()) {
    const prompt = template.split(PROMPT_TEMPLATE_PLACEHOLDER).join(item);
    const previous = seen.get(prompt);
    if (previous !== undefined)
      return `Duplicate subagent prompts from items ${previous} and ${i + 1}. AgentSwarm requires distinct subagents.`;
    seen.set(prompt, i + 1);
    filled.push({ item, prompt });
  }
  return { items: filled, resume };
}

/**
 * Kimi Code's AgentSwarm: one template over many items (and resumed subagents), run at once up to
 * a cap, optionally each in its own git worktree; the parent waits and gets one report. Only the
 * root agent may launch; the runner owns the souls.
 */
export const AgentSwarm = toolFactory(['subagents', 'role'], async ({ subagents, role }) =>
  defineTool({
    name: 'AgentSwarm',
    description: await loadToolDescription(new URL('./agent-swarm.md', import.meta.url), {
      SUBAGENT_TYPES: describeSubagentTypes(subagents.types),
    }),
    params,
    effect: 'read-only',
    call: async (p, ctx) => {
      if (role !== 'root')
        return toolError('Subagents cannot launch other subagents.', 'AgentSwarm unavailable');
      const plan = swarmPlan(p);
      if (typeof plan === 'string') return toolError(plan, 'Invalid swarm');
      const result = await subagents.runSwarm({
        description: p.description,
        subagentType: p.subagent_type,
        model: p.model,
        items: plan.items,
        resume: plan.resume,
        maxConcurrency: p.max_concurrency,
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
