import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { defaultSessionState, writeSessionState } from '../../session/state.js';
import { writeFileAtomic } from '../../util/atomic-file.js';
import { builtOnFirstUse } from '../../util/built-on-first-use.js';

export const SUBAGENT_STATUSES = [
  'idle',
  'running_foreground',
  'running_background',
  'completed',
  'failed',
  'killed',
] as const;
export type SubagentStatus = (typeof SUBAGENT_STATUSES)[number];

/** Built on the first `meta.json` read: a session that starts no subagent reads none. */
function buildRecordSchema() {
  const launchSpecSchema = z.looseObject({
    agent_id: z.string(),
    subagent_type: z.string(),
    model_override: z.string().nullable(),
    effective_model: z.string().nullable(),
    created_at: z.number(),
  });

  return z.looseObject({
    agent_id: z.string(),
    subagent_type: z.string(),
    status: z.enum(SUBAGENT_STATUSES),
    description: z.string(),
    created_at: z.number(),
    updated_at: z.number(),
    last_task_id: z.string().nullable(),
    launch_spec: launchSpecSchema,
  });
}

const recordSchema = builtOnFirstUse(buildRecordSchema);

/** `meta.json` of a subagent instance (Kimi CLI's record fields). */
export type SubagentRecord = z.output<ReturnType<typeof buildRecordSchema>>;

/** The files of one instance under `<session>/subagents/<id>/`. */
export interface SubagentPaths {
  dir: string;
  meta: string;
  context: string;
  wire: string;
  prompt: string;
  output: string;
  state: string;
}

const AGENT_ID = /^a[0-9a-f]{8}$/;

export function isAgentId(id: string): boolean {
  return AGENT_ID.test(id);
}

function newAgentId(): string {
  return `a${randomBytes(4).toString('hex')}`;
}

const now = (): number => Date.now() / 1000;

/**
 * The subagent instances of a session, one folder each. `meta.json` is replaced atomically, so a
 * crash leaves the previous or the next record, never half of one.
 */
export class SubagentInstanceStore {
  constructor(readonly rootDir: string) {}

  paths(agentId: string): SubagentPaths {
    const dir = join(this.rootDir, agentId);
    return {
      dir,
      meta: join(dir, 'meta.json'),
      context: join(dir, 'context.jsonl'),
      wire: join(dir, 'wire.jsonl'),
      prompt: join(dir, 'prompt.txt'),
      output: join(dir, 'output'),
      state: join(dir, 'state.json'),
    };
  }

  /** A new instance folder with its record (status `idle`) and an empty state (its todos). */
  async create(fields: {
    subagentType: string;
    description: string;
    modelOverride: string | null;
    effectiveModel: string | null;
  }): Promise<SubagentRecord> {
    const agentId = newAgentId();
    const created = now();
    const record: SubagentRecord = {
      agent_id: agentId,
      subagent_type: fields.subagentType,
      status: 'idle',
      description: fields.description,
      created_at: created,
      updated_at: created,
      last_task_id: null,
      launch_spec: {
        agent_id: agentId,
        subagent_type: fields.subagentType,
        model_override: fields.modelOverride,
        effective_model: fields.effectiveModel,
        created_at: created,
      },
    };
    await mkdir(this.paths(agentId).dir, { recursive: true });
    await writeSessionState(this.paths(agentId).state, defaultSessionState());
    await this.write(record);
    return record;
  }

  /** The record of an instance, or null when there is none (or it cannot be read). */
  async read(agentId: string): Promise<SubagentRecord | null> {
    if (!isAgentId(agentId)) return null;
    let text: string;
    try {
      text = await readFile(this.paths(agentId).meta, 'utf8');
    } catch {
      return null;
    }
    try {
      const parsed = recordSchema().safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }

  async update(
    record: SubagentRecord,
    patch: Partial<Pick<SubagentRecord, 'status' | 'description' | 'last_task_id'>>,
  ): Promise<SubagentRecord> {
    const next: SubagentRecord = { ...record, ...patch, updated_at: now() };
    await this.write(next);
    return next;
  }

  async remove(agentId: string): Promise<void> {
    if (isAgentId(agentId)) await rm(this.paths(agentId).dir, { recursive: true, force: true });
  }

  writePrompt(agentId: string, prompt: string): Promise<void> {
    return writeFile(this.paths(agentId).prompt, prompt, 'utf8');
  }

  writeOutput(agentId: string, output: string): Promise<void> {
    return writeFileAtomic(this.paths(agentId).output, output);
  }

  private write(record: SubagentRecord): Promise<void> {
    return writeFileAtomic(this.paths(record.agent_id).meta, `${JSON.stringify(record, null, 2)}\n`);
  }
}
