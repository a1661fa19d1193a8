import { AsyncLocalStorage } from 'node:async_hooks';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  callTool,
  longReport,
  ScriptedSession,
  say,
  toolResultOf,
} from './test-support/scripted-root-session.js';

let fixture: ScriptedSession | null = null;

afterEach(async () => {
  vi.restoreAllMocks();
  await fixture?.close();
  fixture = null;
});

// Issue #26: on Node 20 and 22 an AsyncLocalStorage that has run once makes every promise of the
// process pay its hooks; a session passes its run context (wire, approval source, tool call) instead.
describe('a session run', () => {
  it('never enters an AsyncLocalStorage: concurrent approvals, live output, a subagent asking approval', async () => {
    const run = vi.spyOn(AsyncLocalStorage.prototype, 'run');
    const enterWith = vi.spyOn(AsyncLocalStorage.prototype, 'enterWith');
    fixture = await ScriptedSession.open({
      scripts: [
        [
          callTool('sh-1', 'Shell', { command: 'echo one-out' }),
          callTool('sh-2', 'Shell', { command: 'echo two-out' }),
        ].join('\n'),
        callTool('agent-1', 'Agent', { description: 'Write a file', prompt: 'Create out.txt.' }),
        callTool('sub-1', 'WriteFile', { path: 'out.txt', content: 'hello\n' }),
        say(longReport('the file')),
        say('root done'),
      ],
    });
    const { seen, approvals, outcome } = await fixture.runTurn('go');

    expect(outcome.stopReason).toBe('no_tool_calls');
    // Each concurrent call asked with its own id; the subagent's request says which agent asks.
    expect(approvals.map((a) => a.payload.tool_call_id).sort()).toEqual(['sh-1', 'sh-2', 'sub-1']);
    const [agentId] = await fixture.subagentIds();
    expect(approvals.find((a) => a.payload.tool_call_id === 'sub-1')?.payload).toMatchObject({
      agent_id: agentId,
      source_description: 'Write a file',
    });
    expect(approvals.find((a) => a.payload.tool_call_id === 'sh-1')?.payload.agent_id).toBeNull();
    // Each call's live output is its own, on the root wire.
    const live = (id: string) =>
      seen.flatMap((m) => (m.type === 'ToolOutput' && m.payload.tool_call_id === id ? [m.payload.text] : []));
    expect(live('sh-1').join('')).toContain('one-out');
    expect(live('sh-2').join('')).toContain('two-out');
    expect(toolResultOf(seen, 'agent-1').is_error).toBe(false);
    expect(await readFile(join(fixture.workDir, 'out.txt'), 'utf8')).toBe('hello\n');

    expect(run).not.toHaveBeenCalled();
    expect(enterWith).not.toHaveBeenCalled();
  });
});
