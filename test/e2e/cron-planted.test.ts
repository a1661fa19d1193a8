import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { onlySessionDir } from '../support/session-files.js';
import { WireClient } from '../support/wire-process-client.js';

const cli = useScriptedCli();

interface EventParams {
  type?: string;
  payload?: Record<string, unknown>;
}

function addRecord(id: string, job: Record<string, unknown>): string {
  return JSON.stringify({
    op: 'add',
    job: {
      id,
      cron: null,
      fire_at: null,
      prompt: `planted ${id}`,
      recurring: false,
      created_at: Date.now(),
      last_fired_at: null,
      created_by: 'user',
      ...job,
    },
  });
}

/**
 * A session folder's `cron.jsonl` written by someone else (a shared home, a sandbox that was off):
 * a record with a time outside any date, more jobs than the limit, a line of 20 MiB. The session
 * opens, answers, and fires only what the limits let through.
 */
describe('a planted cron.jsonl', () => {
  it('is held to the limits when the session is resumed, and breaks nothing', async () => {
    const { server, sandbox } = await cli.setup([{ text: 'First.' }, { text: 'Fired.' }]);
    const first = sandbox.spawn(['--wire', '--yolo']);
    const firstClient = new WireClient(first);
    expect((await firstClient.request('prompt', { user_input: 'hello' })).result).toEqual({
      status: 'finished',
    });
    first.stdin?.end();
    await collect(first);

    const now = Date.now();
    const lines = [
      addRecord('0000000a', { fire_at: now + 1500, prompt: 'the one that may fire' }),
      addRecord('0000000b', { cron: '* * * * *', recurring: true, created_at: 9e15 }),
      addRecord('0000000c', { fire_at: now + 2000, prompt: 'y'.repeat(20 * 1024 * 1024) }),
      ...Array.from({ length: 80 }, (_, i) =>
        addRecord((0x100 + i).toString(16).padStart(8, '0'), { fire_at: now + 3600_000 }),
      ),
    ];
    await appendFile(join(await onlySessionDir(sandbox.home), 'cron.jsonl'), `${lines.join('\n')}\n`);

    const second = sandbox.spawn(['-C', '--wire', '--yolo']);
    const client = new WireClient(second);
    await client.request('initialize', { protocol_version: '1.10' });
    await client.event('ScheduleFired');
    await client.waitFor((m) => m.method === 'event' && (m.params as EventParams).type === 'TurnEnd');
    const fired = client.messages
      .filter((m) => m.method === 'event' && (m.params as EventParams).type === 'ScheduleFired')
      .map((m) => (m.params as EventParams).payload?.job_id);
    expect(fired).toEqual(['0000000a']);
    expect(server.requests).toHaveLength(2);
    second.stdin?.end();
    const done = await collect(second);
    expect(done.code).toBe(0);
    expect(done.stderr).not.toContain('CronDate');
  });
});
