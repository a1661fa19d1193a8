import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { WireClient } from '../support/wire-process-client.js';

const cli = useScriptedCli();

interface GoalEvent {
  type?: string;
  payload?: { goal: { status: string; objective: string; turns_used: number; reason: string | null } | null };
}

describe('a goal over the wire', () => {
  it('a wire prompt sets the goal; a cancel mid-goal pauses it, and the next session finds it paused', async () => {
    const { server, sandbox } = await cli.setup([
      {
        toolCalls: [
          { id: 'long', name: 'Shell', args: { command: 'echo started > started.fifo; sleep 120' } },
        ],
      },
      { text: 'This answer must never be asked for.' },
    ]);
    execFileSync('mkfifo', [join(sandbox.workDir, 'started.fifo')]);
    const started = readFile(join(sandbox.workDir, 'started.fifo'), 'utf8');
    const child = sandbox.spawn(['--wire', '--yolo']);
    const client = new WireClient(child);
    await client.request('initialize', { protocol_version: '1.10' });
    const prompt = client.request('prompt', { user_input: '/goal --max-turns 8 run the long thing' });
    expect(await started).toBe('started\n');
    expect((await client.request('cancel')).result).toEqual({});
    expect((await prompt).result).toEqual({ status: 'cancelled' });

    const goals = client.messages
      .filter((m) => m.method === 'event' && (m.params as GoalEvent).type === 'GoalUpdated')
      .map((m) => (m.params as GoalEvent).payload?.goal);
    expect(goals[0]).toMatchObject({ status: 'active', objective: 'run the long thing', turns_used: 0 });
    expect(goals.at(-1)).toMatchObject({ status: 'paused', reason: 'Interrupted.', turns_used: 1 });
    // A paused goal runs no turn by itself: only the first answer was asked for.
    expect(server.requests).toHaveLength(1);

    child.stdin?.end();
    await collect(child);
    const status = await sandbox.run(['-C', '--print', '-p', '/goal']);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/Goal: run the long thing\nStatus: paused \(Interrupted\.\)/);
    expect(server.requests).toHaveLength(1);
  });
});

describe('a goal in print mode, interrupted', () => {
  it('SIGINT pauses the goal and print mode exits 6', async () => {
    const { server, sandbox } = await cli.setup([
      {
        toolCalls: [
          { id: 'long', name: 'Shell', args: { command: 'echo started > started.fifo; sleep 120' } },
        ],
      },
      { text: 'This answer must never be asked for.' },
    ]);
    execFileSync('mkfifo', [join(sandbox.workDir, 'started.fifo')]);
    const started = readFile(join(sandbox.workDir, 'started.fifo'), 'utf8');
    const child = sandbox.spawn(['--print', '-p', '/goal run the long thing']);
    child.stdin?.end();
    const done = collect(child);
    expect(await started).toBe('started\n');
    child.kill('SIGINT');
    const result = await done;
    expect(result.code).toBe(6);
    expect(server.requests).toHaveLength(1);
  });
});
