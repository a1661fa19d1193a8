import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, removeDir } from '../tools/background/test-support/task-harness.js';
import { type NotificationDraft, NotificationOutbox } from './notification-outbox.js';
import { renderNotificationForLLM } from './notification-text.js';

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir('kimi-ts-outbox-');
});
afterEach(async () => {
  await removeDir(dir);
});

function draft(sourceId: string, dedupeKey: string | null = null): NotificationDraft {
  return {
    category: 'task',
    type: 'task.completed',
    source_kind: 'background_task',
    source_id: sourceId,
    title: `Background task completed: ${sourceId}`,
    body: `Task ID: ${sourceId}`,
    severity: 'success',
    payload: { task_id: sourceId, output_path: '/tmp/out.log' },
    dedupe_key: dedupeKey,
    output_tail: 'last line',
  };
}

describe('NotificationOutbox', () => {
  it('hands each notification to each sink once, even to readers running at the same time', async () => {
    const outbox = await NotificationOutbox.open(join(dir, 'notifications'));
    await outbox.publish(draft('bash-aaaaaaaa'));
    await outbox.publish(draft('bash-bbbbbbbb'));
    const [first, second] = await Promise.all([outbox.take('llm', 8), outbox.take('llm', 8)]);
    expect([...(first ?? []), ...(second ?? [])].map((n) => n.source_id)).toEqual([
      'bash-aaaaaaaa',
      'bash-bbbbbbbb',
    ]);
    expect((await outbox.take('wire', 1)).map((n) => n.source_id)).toEqual(['bash-aaaaaaaa']);
    expect((await outbox.take('wire', 8)).map((n) => n.source_id)).toEqual(['bash-bbbbbbbb']);
    expect(await outbox.take('wire', 8)).toEqual([]);
  });

  it('publishes a dedupe key only once', async () => {
    const outbox = await NotificationOutbox.open(join(dir, 'notifications'));
    const [a, b] = await Promise.all([
      outbox.publish(draft('bash-aaaaaaaa', 'background_task:bash-aaaaaaaa:completed')),
      outbox.publish(draft('bash-aaaaaaaa', 'background_task:bash-aaaaaaaa:completed')),
    ]);
    expect(a.id).toBe(b.id);
    expect(outbox.all()).toHaveLength(1);
  });

  it('stores event.json and delivery.json, and a reopened outbox remembers deliveries', async () => {
    const outbox = await NotificationOutbox.open(join(dir, 'notifications'));
    const event = await outbox.publish(draft('bash-aaaaaaaa'));
    await outbox.take('llm', 8);
    const delivery = JSON.parse(
      await readFile(join(dir, 'notifications', event.id, 'delivery.json'), 'utf8'),
    );
    expect(delivery.sinks.llm.status).toBe('acked');
    expect(delivery.sinks.wire.status).toBe('pending');

    const reopened = await NotificationOutbox.open(join(dir, 'notifications'));
    expect(await reopened.take('llm', 8)).toEqual([]);
    await reopened.markDelivered('wire', [event.id]);
    expect(await reopened.take('wire', 8)).toEqual([]);
  });

  it('renders the model message with the output tail', async () => {
    const outbox = await NotificationOutbox.open(join(dir, 'notifications'));
    const event = await outbox.publish(draft('bash-aaaaaaaa'));
    expect(renderNotificationForLLM(event)).toBe(
      [
        `<notification id="${event.id}" category="task" type="task.completed" source_kind="background_task" source_id="bash-aaaaaaaa">`,
        'Title: Background task completed: bash-aaaaaaaa',
        'Severity: success',
        'Task ID: bash-aaaaaaaa',
        '<task-notification>',
        'Full output: /tmp/out.log',
        'Last lines of output:',
        'last line',
        '</task-notification>',
        '</notification>',
      ].join('\n'),
    );
  });
});
