import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, watch } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RunCancelled } from '../../soul/errors.js';
import { callTool, ScriptedSession } from './test-support/scripted-root-session.js';

let fixture: ScriptedSession | null = null;

afterEach(async () => {
  await fixture?.close();
  fixture = null;
});

/** A command that creates `started.flag` in the work dir, then blocks; the marker finds its processes. */
function blockingCommand(marker: string): string {
  return `touch started.flag && sleep 30 && echo ${marker}`;
}

function processesWith(marker: string): string[] {
  const table = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return table.split('\n').filter((line) => line.includes(marker) && !line.includes('ps -eo'));
}

/** Resolves when `name` appears in `dir`. */
function fileAppears(dir: string, name: string): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(dir, (_event, file) => {
      if (file === name) {
        watcher.close();
        resolve();
      }
    });
  });
}

describe('stopping a foreground subagent', () => {
  it('fails the run with the timeout error and leaves no process behind', async () => {
    const marker = `kimi-ts-timeout-${randomBytes(4).toString('hex')}`;
    fixture = await ScriptedSession.open({
      yolo: true,
      scripts: [callTool('sub-1', 'Shell', { command: blockingCommand(marker) })],
    });
    const runner = fixture.deps.subagents!;
    const result = await runner.run({
      description: 'Slow work',
      prompt: 'Run the slow command.',
      subagentType: 'coder',
      model: null,
      resume: null,
      runInBackground: false,
      timeoutS: 1,
      parentToolCallId: 'root-1',
      signal: new AbortController().signal,
    });
    expect(result).toEqual({
      isError: true,
      output: '',
      message: 'Agent timed out after 1s.',
      brief: 'Agent timed out (1s)',
    });
    const [agentId] = await fixture.subagentIds();
    expect((await fixture.meta(agentId!)).status).toBe('failed');
    expect(existsSync(join(fixture.workDir, 'started.flag'))).toBe(true);
    expect(processesWith(marker)).toEqual([]);
  });

  it('cancels the subagent with the root turn, marks it killed, and leaves no process behind', async () => {
    const marker = `kimi-ts-cancel-${randomBytes(4).toString('hex')}`;
    fixture = await ScriptedSession.open({
      yolo: true,
      scripts: [
        callTool('root-1', 'Agent', { description: 'Slow work', prompt: 'Run the slow command.' }),
        callTool('sub-1', 'Shell', { command: blockingCommand(marker) }),
      ],
    });
    const cancel = new AbortController();
    const started = fileAppears(fixture.workDir, 'started.flag');
    const turn = fixture.runTurn('go', { cancel: cancel.signal });
    await started;
    expect(processesWith(marker).length).toBeGreaterThan(0);
    cancel.abort(new Error('Interrupted by user'));
    await expect(turn).rejects.toBeInstanceOf(RunCancelled);
    const [agentId] = await fixture.subagentIds();
    expect((await fixture.meta(agentId!)).status).toBe('killed');
    expect(processesWith(marker)).toEqual([]);
    // The subagent's wire file is complete: its turn ended.
    const wire = await fixture.jsonLines(agentId!, 'wire.jsonl');
    expect(wire.at(-1)).toMatchObject({ message: { type: 'TurnEnd' } });
  });
});
