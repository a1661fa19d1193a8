import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isAgentId, SubagentInstanceStore } from './instance-store.js';

let root: string;
let store: SubagentInstanceStore;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-instances-'));
  store = new SubagentInstanceStore(join(root, 'subagents'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('SubagentInstanceStore', () => {
  it('creates a record with Kimi CLI fields and reads it back', async () => {
    const record = await store.create({
      subagentType: 'coder',
      description: 'Fix it',
      modelOverride: null,
      effectiveModel: 'main',
    });
    expect(isAgentId(record.agent_id)).toBe(true);
    const onDisk = JSON.parse(await readFile(store.paths(record.agent_id).meta, 'utf8'));
    expect(Object.keys(onDisk).sort()).toEqual(
      [
        'agent_id',
        'created_at',
        'description',
        'last_task_id',
        'launch_spec',
        'status',
        'subagent_type',
        'updated_at',
      ].sort(),
    );
    expect(onDisk.launch_spec).toEqual({
      agent_id: record.agent_id,
      subagent_type: 'coder',
      model_override: null,
      effective_model: 'main',
      created_at: record.created_at,
    });
    expect(await store.read(record.agent_id)).toEqual(record);
    const state = JSON.parse(await readFile(store.paths(record.agent_id).state, 'utf8'));
    expect(state.todos).toEqual([]);
  });

  it('updates status and fields, bumping updated_at', async () => {
    const record = await store.create({
      subagentType: 'plan',
      description: 'd',
      modelOverride: 'm',
      effectiveModel: 'm',
    });
    const next = await store.update(record, { status: 'running_background', last_task_id: 'agent-abc' });
    expect(next.updated_at).toBeGreaterThanOrEqual(record.updated_at);
    expect(await store.read(record.agent_id)).toMatchObject({
      status: 'running_background',
      last_task_id: 'agent-abc',
    });
  });

  it('answers null for ids that are malformed, unknown or unreadable, and never leaves the folder', async () => {
    expect(await store.read('../../etc')).toBeNull();
    expect(await store.read('a00000000')).toBeNull();
    const record = await store.create({
      subagentType: 'coder',
      description: 'd',
      modelOverride: null,
      effectiveModel: null,
    });
    await writeFile(store.paths(record.agent_id).meta, '{"agent_id": 1');
    expect(await store.read(record.agent_id)).toBeNull();
    await store.remove(record.agent_id);
    expect(await store.read(record.agent_id)).toBeNull();
  });
});
