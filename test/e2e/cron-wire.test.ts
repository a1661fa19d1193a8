import { readFile } from 'node:fs/promises';
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

const eventsOf = (client: WireClient, type: string) =>
  client.messages
    .filter((m) => m.method === 'event' && (m.params as EventParams).type === type)
    .map((m) => (m.params as EventParams).payload);

/** The text of the last user message the model was sent in request `index`. */
function lastUserText(body: unknown): string {
  const messages = (body as { messages: { role: string; content: unknown }[] }).messages;
  const user = messages.filter((m) => m.role === 'user').at(-1);
  if (!user) return '';
  return typeof user.content === 'string'
    ? user.content
    : (user.content as { type: string; text?: string }[]).map((part) => part.text ?? '').join('');
}

describe('a scheduled prompt in a live wire session', () => {
  it('a one-shot the model schedules 1 s ahead fires as a second turn, marked as from a schedule', async () => {
    const { server, sandbox } = await cli.setup([
      {
        toolCalls: [
          {
            id: 'sched',
            name: 'CronCreate',
            args: { delay_seconds: 1, prompt: '/yolo check the build', recurring: false },
          },
        ],
      },
      { text: 'Scheduled.' },
      { text: 'The build is fine.' },
    ]);
    const child = sandbox.spawn(['--wire', '--yolo']);
    const client = new WireClient(child);
    await client.request('initialize', { protocol_version: '1.10' });
    expect((await client.request('prompt', { user_input: 'remind me in a second' })).result).toEqual({
      status: 'finished',
    });
    // The second TurnBegin comes from the schedule, with no prompt request from the client.
    await client.waitFor(
      (m) =>
        m.method === 'event' &&
        (m.params as EventParams).type === 'TurnEnd' &&
        eventsOf(client, 'TurnEnd').length >= 2,
    );
    const begins = eventsOf(client, 'TurnBegin');
    expect(begins.map((p) => p?.user_input)).toEqual(['remind me in a second', '/yolo check the build']);
    const fired = eventsOf(client, 'ScheduleFired');
    expect(fired).toHaveLength(1);
    expect(fired[0]).toMatchObject({ cron: null, recurring: false, coalesced_count: 1, stale: false });
    // ScheduleFired comes right before the turn it starts.
    const types = client.eventTypes();
    expect(types[types.indexOf('ScheduleFired') + 1]).toBe('TurnBegin');
    // The model reads the prompt in its envelope: it was never run as a slash command (`/yolo` would
    // have answered without the model).
    expect(server.requests).toHaveLength(3);
    const third = lastUserText(server.requests[2]?.body);
    expect(third).toContain(`<cron-fire jobId="${String(fired[0]?.job_id)}" cron="once" recurring="false"`);
    expect(third).toContain('/yolo check the build');

    // A one-shot is gone once fired; the session folder's cron.jsonl says so.
    child.stdin?.end();
    await collect(child);
    const records = (await readFile(join(await onlySessionDir(sandbox.home), 'cron.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).op);
    expect(records).toEqual(['add', 'delete']);
  });
});

describe('a scheduled prompt outlives its process', () => {
  it('is restored when the session is resumed, and fires there', async () => {
    const { server, sandbox } = await cli.setup([
      {
        toolCalls: [
          { id: 'sched', name: 'CronCreate', args: { delay_seconds: 1, prompt: 'after the restart' } },
        ],
      },
      { text: 'Scheduled.' },
      { text: 'Fired after the restart.' },
    ]);
    // A client that never sends `initialize` hears nothing between turns: no schedule fires in the
    // first process, however slowly it ends.
    const first = sandbox.spawn(['--wire', '--yolo']);
    const firstClient = new WireClient(first);
    expect((await firstClient.request('prompt', { user_input: 'schedule it' })).result).toEqual({
      status: 'finished',
    });
    first.stdin?.end();
    await collect(first);
    expect(server.requests).toHaveLength(2);
    expect(eventsOf(firstClient, 'ScheduleFired')).toEqual([]);

    const second = sandbox.spawn(['-C', '--wire', '--yolo']);
    const client = new WireClient(second);
    await client.request('initialize', { protocol_version: '1.10' });
    await client.event('ScheduleFired');
    await client.waitFor((m) => m.method === 'event' && (m.params as EventParams).type === 'TurnEnd');
    expect(eventsOf(client, 'TurnBegin').map((p) => p?.user_input)).toEqual(['after the restart']);
    expect(server.requests).toHaveLength(3);
    second.stdin?.end();
    await collect(second);
  });
});
