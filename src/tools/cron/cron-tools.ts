import { z } from 'zod';
import { toolError, toolOk } from '../../kosong/tool.js';
import { declareParameters } from '../../toolset/declared-parameters.js';
import { toolFactory } from '../../toolset/loading/dependencies.js';
import { defineTool, type KimiTool } from '../../toolset/tool-definition.js';
import type { AgentRole } from '../runtime.js';
import type { CronBook } from './cron-book.js';
import { CronExpressionError } from './cron-expression.js';
import { describeSchedule, formatLocalIso, promptPreview } from './cron-format.js';
import {
  CRON_STALE_AFTER_MS,
  type CronJob,
  CronJobError,
  MAX_CRON_JOBS,
  MAX_CRON_PROMPT_BYTES,
} from './cron-job.js';

export const CRON_TOOL_NAMES = ['CronCreate', 'CronList', 'CronDelete'] as const;

const CREATE_DESCRIPTION = `Schedule a prompt to run later in this session, as a new turn: recurring (a 5-field cron expression) or once (a cron expression with recurring=false, or delay_seconds).

- \`cron\` is standard 5-field cron in local time: "minute hour day-of-month month day-of-week". "*/5 * * * *" = every 5 minutes; "0 9 * * 1-5" = weekdays at 9:00. For an approximate time, avoid minute 0 and 30 (pick "57 8 * * *" rather than "0 9 * * *").
- One-shot: \`recurring: false\` fires at the next match, then the job is deleted; or \`delay_seconds: N\` fires once N seconds from now ("in 10 minutes" = 600).
- A fire runs only while the session is idle: one due during a turn waits for the turn to end. Fires missed while busy or closed are delivered once, with coalescedCount telling how many were missed (only the latest state matters).
- The prompt comes back wrapped in <cron-fire jobId=".." cron=".." recurring=".." coalescedCount="N" stale="..."><prompt>…</prompt></cron-fire>.
- Recurring jobs fire with a small deterministic delay (≤ 10% of the period, ≤ 15 minutes); after 7 days a recurring job fires once more with stale="true" and is deleted (create it again to keep it).
- Limits: ${MAX_CRON_JOBS} jobs per session; the prompt at most ${MAX_CRON_PROMPT_BYTES} bytes. Jobs belong to this session (kept when it is resumed, not in a new or forked one).
- Tell the user the job id and that it can be cancelled (CronDelete, or /loop stop <id>).`;

const LIST_DESCRIPTION =
  'List the prompts scheduled in this session (CronCreate, /loop): id, schedule, next fire time (local, jitter applied), recurring, age in days, stale, and the prompt (JSON-encoded, first 200 bytes). Read-only.';

const DELETE_DESCRIPTION =
  'Delete a scheduled prompt by the id CronCreate or CronList gave. An unknown id is an error (call CronList to see the live ids). Deleting cannot be undone.';

/** The job as CronList and CronCreate print it. */
export function formatCronJob(book: CronBook, job: CronJob): string {
  const next = book.nextFireAt(job);
  const ageDays = (book.now() - job.created_at) / 86_400_000;
  return [
    `id: ${job.id}`,
    `schedule: ${describeSchedule(job)}`,
    ...(job.cron !== null ? [`cron: ${job.cron}`] : []),
    `recurring: ${job.recurring}`,
    `nextFireAt: ${next === null ? 'null' : formatLocalIso(next)}`,
    `ageDays: ${ageDays.toFixed(2)}`,
    `stale: ${job.recurring && book.now() - job.created_at >= CRON_STALE_AFTER_MS}`,
    `created_by: ${job.created_by}`,
    `prompt: ${JSON.stringify(promptPreview(job.prompt))}`,
  ].join('\n');
}

/** CronCreate, CronList and CronDelete over the session's book (the root agent's toolset only). */
export function cronTools(book: CronBook): KimiTool[] {
  return [cronCreateTool(book), cronListTool(book), cronDeleteTool(book)];
}

// One function per tool: each of the agent file's entries builds its own tool only. Building all three
// for each entry converted nine zod schemas to JSON Schema at start, where three are sent.

const cronCreateParams = declareParameters('CronCreate', () =>
  z.object({
    cron: z.string().optional().describe('5-field cron expression in local time: "M H DoM Mon DoW".'),
    delay_seconds: z
      .number()
      .positive()
      .optional()
      .describe('Instead of cron: fire once, this many seconds from now.'),
    prompt: z
      .string()
      .min(1)
      .describe(`The prompt to run at each fire (at most ${MAX_CRON_PROMPT_BYTES} bytes, UTF-8).`),
    recurring: z
      .boolean()
      .default(true)
      .describe(
        'With cron: true (default) fires at every match until deleted or 7 days old; false fires once.',
      ),
  }),
);

function cronCreateTool(book: CronBook): KimiTool {
  return defineTool({
    name: 'CronCreate',
    description: CREATE_DESCRIPTION,
    params: cronCreateParams,
    // A schedule outlives the turn that made it: the person is asked, as for any lasting change.
    effect: 'external',
    approval: (params) => ({
      action: 'schedule a prompt',
      description:
        params.delay_seconds !== undefined
          ? `Schedule a prompt once in ${params.delay_seconds}s: ${promptPreview(params.prompt)}`
          : `Schedule a prompt (cron "${params.cron ?? ''}"${params.recurring ? '' : ', once'}): ${promptPreview(params.prompt)}`,
      // The person approves what will run later, unseen: the whole prompt (at most 8 KiB), not the
      // preview, whose tail (past 200 bytes or behind blank-looking characters) was out of sight.
      display: [{ type: 'brief', text: params.prompt }],
      // Approving one schedule for the session must not approve every later prompt, unseen.
      askEveryTime: true,
    }),
    call(params) {
      if ((params.cron === undefined) === (params.delay_seconds === undefined))
        return toolError('Give either cron or delay_seconds (exactly one).', 'Invalid schedule');
      try {
        const job =
          params.cron !== undefined
            ? book.add({
                kind: 'cron',
                cron: params.cron,
                recurring: params.recurring,
                prompt: params.prompt,
                createdBy: 'model',
              })
            : book.add({
                kind: 'delay',
                delayMs: (params.delay_seconds ?? 0) * 1000,
                prompt: params.prompt,
                createdBy: 'model',
              });
        return toolOk(formatCronJob(book, job), 'Prompt scheduled.', `Scheduled ${job.id}`);
      } catch (error) {
        if (error instanceof CronExpressionError)
          return toolError(`Invalid cron expression: ${error.message}`, 'Invalid cron expression');
        if (error instanceof CronJobError) return toolError(error.message, 'Not scheduled');
        throw error;
      }
    },
  });
}

const cronListParams = declareParameters('CronList', () => z.object({}));

function cronListTool(book: CronBook): KimiTool {
  return defineTool({
    name: 'CronList',
    description: LIST_DESCRIPTION,
    params: cronListParams,
    effect: 'read-only',
    call() {
      const jobs = book.list();
      const header = `cron_jobs: ${jobs.length}`;
      if (jobs.length === 0) return toolOk(`${header}\nNo cron jobs scheduled.`, 'Scheduled prompts listed.');
      return toolOk(
        `${header}\n${jobs.map((job) => formatCronJob(book, job)).join('\n---\n')}`,
        'Scheduled prompts listed.',
      );
    },
  });
}

const cronDeleteParams = declareParameters('CronDelete', () =>
  z.object({ id: z.string().describe('The job id from CronCreate or CronList.') }),
);

function cronDeleteTool(book: CronBook): KimiTool {
  return defineTool({
    name: 'CronDelete',
    description: DELETE_DESCRIPTION,
    params: cronDeleteParams,
    effect: 'read-only',
    call({ id }) {
      if (!book.remove(id.trim()))
        return toolError(
          `No scheduled prompt has the id ${JSON.stringify(id)}. CronList shows the live ids.`,
          'Not found',
        );
      return toolOk(`Deleted scheduled prompt ${id.trim()}.`, 'Scheduled prompt deleted.');
    },
  });
}

/** A subagent's work ends with its report: a schedule outliving it is the main agent's to make. */
function rootOnly(name: string, description: string, build: () => KimiTool, role: AgentRole): KimiTool {
  if (role === 'root') return build();
  return defineTool({
    name,
    description,
    params: z.object({}).passthrough(),
    effect: 'read-only',
    call: async () =>
      toolError('Scheduled prompts belong to the main agent, not to a subagent.', 'Schedules unavailable'),
  });
}

/** The module's tools as the agent file names them (`kimi-ts/tools/cron/cron-tools:CronCreate`). */
export const CronCreate = toolFactory(['cronBook', 'role'], (deps) =>
  rootOnly('CronCreate', CREATE_DESCRIPTION, () => cronCreateTool(deps.cronBook), deps.role),
);
export const CronList = toolFactory(['cronBook', 'role'], (deps) =>
  rootOnly('CronList', LIST_DESCRIPTION, () => cronListTool(deps.cronBook), deps.role),
);
export const CronDelete = toolFactory(['cronBook', 'role'], (deps) =>
  rootOnly('CronDelete', DELETE_DESCRIPTION, () => cronDeleteTool(deps.cronBook), deps.role),
);
