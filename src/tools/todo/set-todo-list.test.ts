import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readSessionState, updateSessionState } from '../../session/state.js';
import { Approval } from '../../toolset/approval/approval.js';
import { KimiToolset } from '../../toolset/kimi-toolset.js';
import { dispatchAll, toolCall } from '../../toolset/test-support/dispatch.js';
import { withTestPolicy } from '../../toolset/test-support/test-policy.js';
import { toolErrorKind } from '../../toolset/tool-errors.js';
import type { SessionStore } from '../runtime.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-todo-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A session store over a real state.json, as the app wires it for the root agent. */
async function stateFileStore(): Promise<SessionStore> {
  const path = join(dir, 'state.json');
  let state = await readSessionState(path);
  return {
    sessionId: 'session-1',
    sessionDir: dir,
    getTodos: () => state.todos,
    setTodos: async (todos) => {
      state = await updateSessionState(path, (current) => ({ ...current, todos }));
    },
  };
}

async function loadTool(session: SessionStore) {
  const toolset = new KimiToolset(withTestPolicy({ approval: new Approval() }));
  await toolset.loadTools(['kimi-ts/tools/todo/set-todo-list:SetTodoList'], { session }, { baseDir: '/' });
  return async (args: unknown) => (await dispatchAll(toolset, [toolCall('todo', 'SetTodoList', args)]))[0]!;
}

describe('SetTodoList', () => {
  it('writes the list to state.json, shows it as a todo block, and reads it back after a restart', async () => {
    const setTodos = await loadTool(await stateFileStore());
    const items = [
      { title: 'Read the failing test', status: 'done' },
      { title: 'Fix the parser', status: 'in_progress' },
      { title: 'Run the suite', status: 'pending' },
    ];
    const written = await setTodos({ todos: items });
    expect(written.return_value).toEqual({
      is_error: false,
      output: 'Todo list updated',
      message: 'Todo list updated',
      display: [{ type: 'todo', items }],
    });
    const onDisk = JSON.parse(await readFile(join(dir, 'state.json'), 'utf8')) as { todos: unknown };
    expect(onDisk.todos).toEqual(items);

    // A new process: a fresh store reading the same file.
    const readTodos = await loadTool(await stateFileStore());
    for (const args of [{}, { todos: null }]) {
      const read = await readTodos(args);
      expect(read.return_value).toEqual({
        is_error: false,
        output:
          'Current todo list:\n- [done] Read the failing test\n- [in_progress] Fix the parser\n- [pending] Run the suite',
        message: '',
        display: [],
      });
    }
  });

  it('clears the list with [] and reports an empty list', async () => {
    const setTodos = await loadTool(await stateFileStore());
    await setTodos({ todos: [{ title: 'one', status: 'pending' }] });
    const cleared = await setTodos({ todos: [] });
    expect(cleared.return_value.display).toEqual([{ type: 'todo', items: [] }]);
    const read = await setTodos({});
    expect(read.return_value.output).toBe('Todo list is empty.');
    expect((await readSessionState(join(dir, 'state.json'))).todos).toEqual([]);
  });

  it('refuses items without a title or with an unknown status, and keeps the old list', async () => {
    const setTodos = await loadTool(await stateFileStore());
    await setTodos({ todos: [{ title: 'keep me', status: 'pending' }] });
    for (const todos of [
      [{ title: '', status: 'pending' }],
      [{ title: 'x', status: 'blocked' }],
      [{ status: 'done' }],
    ]) {
      expect(toolErrorKind((await setTodos({ todos })).return_value)).toBe('validate');
    }
    expect((await setTodos({})).return_value.output).toBe('Current todo list:\n- [pending] keep me');
  });
});
