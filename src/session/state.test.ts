import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultSessionState, readSessionState, updateSessionState, writeSessionState } from './state.js';

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-state-'));
  file = join(dir, 'state.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('state.json', () => {
  it('has Kimi CLI fields and defaults', async () => {
    expect(await readSessionState(file)).toEqual({
      version: 1,
      approval: { yolo: false, afk: false, auto_approve_actions: [] },
      additional_dirs: [],
      custom_title: null,
      title_generated: false,
      title_generate_attempts: 0,
      plan_mode: false,
      plan_session_id: null,
      plan_slug: null,
      wire_mtime: null,
      archived: false,
      archived_at: null,
      auto_archive_exempt: false,
      todos: [],
      model_alias: null,
      model_thinking: null,
    });
  });

  it('round-trips every field', async () => {
    const state = {
      ...defaultSessionState(),
      approval: { yolo: true, afk: false, auto_approve_actions: ['run command'] },
      additional_dirs: ['/x'],
      custom_title: 'T',
      plan_mode: true,
      plan_slug: 'iron-man-hulk-thor',
      todos: [{ title: 'write tests', status: 'in_progress' as const }],
    };
    await writeSessionState(file, state);
    expect(await readSessionState(file)).toEqual(state);
    expect(JSON.parse(await readFile(file, 'utf8')).approval.auto_approve_actions).toEqual(['run command']);
  });

  it('reads a corrupt file as defaults', async () => {
    await writeFile(file, '{"approval": {"yolo": tr');
    expect(await readSessionState(file)).toEqual(defaultSessionState());
    await writeFile(file, '[1,2]');
    expect(await readSessionState(file)).toEqual(defaultSessionState());
  });

  it('defaults only the malformed fields, drops bad todos and keeps unknown fields', async () => {
    await writeFile(
      file,
      JSON.stringify({
        approval: { yolo: 'yes', afk: true },
        custom_title: 42,
        plan_mode: true,
        todos: [
          { title: 'ok', status: 'done' },
          { title: '', status: 'done' },
          { title: 'x', status: 'later' },
          7,
        ],
        from_the_future: { a: 1 },
      }),
    );
    const state = await readSessionState(file);
    expect(state.approval).toEqual({ yolo: false, afk: true, auto_approve_actions: [] });
    expect(state.custom_title).toBeNull();
    expect(state.plan_mode).toBe(true);
    expect(state.todos).toEqual([{ title: 'ok', status: 'done' }]);
    await writeSessionState(file, state);
    expect(JSON.parse(await readFile(file, 'utf8')).from_the_future).toEqual({ a: 1 });
  });

  it('checks each field by its own rule and keeps unknown approval fields', async () => {
    await writeFile(
      file,
      JSON.stringify({
        version: 1.5,
        approval: { yolo: true, auto_approve_actions: ['a', 3], remembered_by_newer: 'x' },
        title_generate_attempts: -1,
        wire_mtime: 12.5,
        archived_at: 'yesterday',
        additional_dirs: ['/a', '/b'],
        todos: [{ title: 'keep me', status: 'pending', note: 'dropped' }],
      }),
    );
    const state = await readSessionState(file);
    expect(state.version).toBe(1);
    expect(state.approval).toEqual({
      yolo: true,
      afk: false,
      auto_approve_actions: [],
      remembered_by_newer: 'x',
    });
    expect(state.title_generate_attempts).toBe(0);
    expect(state.wire_mtime).toBe(12.5);
    expect(state.archived_at).toBeNull();
    expect(state.additional_dirs).toEqual(['/a', '/b']);
    expect(state.todos).toEqual([{ title: 'keep me', status: 'pending' }]);
  });

  it('reads an approval that is not an object as the default approval', async () => {
    await writeFile(file, JSON.stringify({ approval: ['yolo'], plan_mode: true }));
    const state = await readSessionState(file);
    expect(state.approval).toEqual({ yolo: false, afk: false, auto_approve_actions: [] });
    expect(state.plan_mode).toBe(true);
  });

  it('gives each state its own default lists', async () => {
    const a = await readSessionState(file);
    a.additional_dirs.push('/mutated');
    expect((await readSessionState(file)).additional_dirs).toEqual([]);
  });

  it('never exposes a half-written file to a reader and leaves no temp files', async () => {
    const big = (n: number) => ({
      ...defaultSessionState(),
      additional_dirs: Array.from({ length: 2000 }, () => `/d${n}`),
    });
    await writeSessionState(file, big(0));
    let reads = 0;
    let writing = true;
    const reader = (async () => {
      while (writing) {
        const parsed = JSON.parse(await readFile(file, 'utf8'));
        expect(parsed.additional_dirs).toHaveLength(2000);
        reads++;
      }
    })();
    for (let n = 1; n <= 10; n++) await writeSessionState(file, big(n));
    writing = false;
    await reader;
    expect(reads).toBeGreaterThan(0);
    expect((await readSessionState(file)).additional_dirs[0]).toBe('/d10');
    expect(await readdir(dir)).toEqual(['state.json']);
  });

  it('applies concurrent updates one after the other', async () => {
    await Promise.all([
      updateSessionState(file, (s) => ({ ...s, plan_mode: true })),
      updateSessionState(file, (s) => ({ ...s, todos: [{ title: 't', status: 'pending' }] })),
      updateSessionState(file, (s) => {
        s.approval.auto_approve_actions.push('edit file');
        return s;
      }),
    ]);
    const state = await readSessionState(file);
    expect(state.plan_mode).toBe(true);
    expect(state.todos).toEqual([{ title: 't', status: 'pending' }]);
    expect(state.approval.auto_approve_actions).toEqual(['edit file']);
  });
});
