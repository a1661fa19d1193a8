import { randomBytes } from 'node:crypto';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { builtOnFirstUse } from '../util/built-on-first-use.js';
import { readJsonFile, SerialJsonWriter, writeJsonAtomic } from '../util/json-file.js';
import type { Notification } from '../wire/events.js';
import type { LLMNotification } from '../wire/llm-notification.js';
import { notificationSchema } from '../wire/payloads.js';
import { renderNotificationForLLM } from './notification-text.js';

/** Where a notification goes: into the model's context, and onto the Wire for UIs. */
export const NOTIFICATION_SINKS = ['llm', 'wire'] as const;
export type NotificationSink = (typeof NOTIFICATION_SINKS)[number];

/**
 * The schemas of the files, built on the first read: a new session has no notification to read, and
 * making them at load was part of every start's time to the first model request.
 */
function buildSchemas() {
  /** `event.json`: the notification, plus what only its LLM rendering needs. */
  const storedEventSchema = z.object({
    version: z.literal(1),
    // The Wire's notification (the `Notification` event's payload) is declared once, in the wire.
    ...notificationSchema().shape,
    /** A second publish with the same key returns the first notification instead. */
    dedupe_key: z.string().nullable(),
    targets: z.array(z.enum(NOTIFICATION_SINKS)),
    /** The end of the task's output, for the model. */
    output_tail: z.string().nullable(),
  });

  const sinkStateSchema = z.object({
    status: z.enum(['pending', 'acked']),
    acked_at: z.number().nullable(),
  });
  /** `delivery.json`: per sink, whether the notification was handed over. */
  const deliverySchema = z.object({ sinks: z.partialRecord(z.enum(NOTIFICATION_SINKS), sinkStateSchema) });
  return { storedEventSchema, deliverySchema };
}

const schemas = builtOnFirstUse(buildSchemas);

export type StoredNotification = z.infer<ReturnType<typeof buildSchemas>['storedEventSchema']>;

export type NotificationDraft = Omit<StoredNotification, 'version' | 'id' | 'created_at' | 'targets'>;

type Delivery = z.infer<ReturnType<typeof buildSchemas>['deliverySchema']>;

interface Entry {
  event: StoredNotification;
  delivery: Delivery;
  deliveryWriter: SerialJsonWriter;
}

/**
 * The session's notifications (background tasks' for now), kept under `<sessionDir>/notifications/<id>/{event.json,
 * delivery.json}` like Kimi CLI's store. Each notification is handed to each of its sinks exactly
 * once: taking it marks it delivered before anything is awaited, so two readers running at the
 * same time never both get it, and the mark is saved so a resumed session does not repeat it.
 */
export class NotificationOutbox {
  private readonly entries: Entry[] = [];

  private constructor(private readonly dir: string) {}

  static async open(dir: string): Promise<NotificationOutbox> {
    const outbox = new NotificationOutbox(dir);
    await mkdir(dir, { recursive: true });
    for (const name of await readdir(dir)) {
      const event = await readJsonFile(join(dir, name, 'event.json'), schemas().storedEventSchema);
      if (!event || event.id !== name) continue;
      const delivery = (await readJsonFile(join(dir, name, 'delivery.json'), schemas().deliverySchema)) ?? {
        sinks: Object.fromEntries(event.targets.map((sink) => [sink, { status: 'pending', acked_at: null }])),
      };
      outbox.entries.push(outbox.entry(event, delivery));
    }
    outbox.entries.sort((a, b) => a.event.created_at - b.event.created_at);
    return outbox;
  }

  /** Stores a new notification for every sink; with a dedupe key already used, returns the earlier one. */
  async publish(draft: NotificationDraft): Promise<StoredNotification> {
    if (draft.dedupe_key !== null) {
      const earlier = this.entries.find((entry) => entry.event.dedupe_key === draft.dedupe_key);
      if (earlier) return earlier.event;
    }
    const event: StoredNotification = {
      version: 1,
      id: `n${randomBytes(4).toString('hex')}`,
      created_at: Date.now() / 1000,
      targets: [...NOTIFICATION_SINKS],
      ...draft,
    };
    const delivery: Delivery = {
      sinks: Object.fromEntries(event.targets.map((sink) => [sink, { status: 'pending', acked_at: null }])),
    };
    const folderReady = mkdir(join(this.dir, event.id), { recursive: true });
    const entry = this.entry(event, delivery, folderReady);
    this.entries.push(entry);
    await folderReady;
    await writeJsonAtomic(join(this.dir, event.id, 'event.json'), event);
    await entry.deliveryWriter.write();
    return event;
  }

  /** Takes up to `max` notifications not yet delivered to `sink`, oldest first, and marks them delivered. */
  async take(sink: NotificationSink, max: number): Promise<StoredNotification[]> {
    const taken: Entry[] = [];
    for (const entry of this.entries) {
      if (taken.length >= max) break;
      const state = entry.delivery.sinks[sink];
      if (state?.status !== 'pending') continue;
      entry.delivery.sinks[sink] = { status: 'acked', acked_at: Date.now() / 1000 };
      taken.push(entry);
    }
    await Promise.all(taken.map((entry) => entry.deliveryWriter.write()));
    return taken.map((entry) => entry.event);
  }

  /** Marks notifications as delivered to `sink` without handing them out (already in a restored context). */
  async markDelivered(sink: NotificationSink, ids: Iterable<string>): Promise<void> {
    const wanted = new Set(ids);
    const changed = this.entries.filter(
      (entry) => wanted.has(entry.event.id) && entry.delivery.sinks[sink]?.status === 'pending',
    );
    for (const entry of changed)
      entry.delivery.sinks[sink] = { status: 'acked', acked_at: Date.now() / 1000 };
    await Promise.all(changed.map((entry) => entry.deliveryWriter.write()));
  }

  /** Marks the notifications of background task `taskId` delivered to the model (WaitFor gave it the result). */
  acknowledgeForModel(taskId: string): Promise<void> {
    const ids = this.entries
      .filter((entry) => entry.event.source_kind === 'background_task' && entry.event.source_id === taskId)
      .map((entry) => entry.event.id);
    return this.markDelivered('llm', ids);
  }

  /** How many notifications still wait for `sink`. */
  pendingCount(sink: NotificationSink): number {
    return this.entries.filter((entry) => entry.delivery.sinks[sink]?.status === 'pending').length;
  }

  /** Every notification, oldest first. */
  all(): StoredNotification[] {
    return this.entries.map((entry) => entry.event);
  }

  /** Notifications for the model's next step, each handed out once (the soul's LLMNotificationSource). */
  async claimForLLM(max: number, signal?: AbortSignal): Promise<LLMNotification[]> {
    signal?.throwIfAborted();
    const events = await this.take('llm', max);
    return events.map((event) => ({
      type: event.type,
      text: renderNotificationForLLM(event),
      hookFields: { title: event.title, body: event.body, severity: event.severity },
    }));
  }

  /** Notifications for the Wire, each handed out once (runSoul's WireNotificationSource). */
  async drainWire(max: number, signal?: AbortSignal): Promise<Notification[]> {
    signal?.throwIfAborted();
    return (await this.take('wire', max)).map(toWireNotification);
  }

  /** Notifications that have not reached the model yet. */
  pendingForLLM(): number {
    return this.pendingCount('llm');
  }

  /** Resolves once every pending write is on disk. */
  async flush(): Promise<void> {
    await Promise.all(this.entries.map((entry) => entry.deliveryWriter.flush()));
  }

  private entry(event: StoredNotification, delivery: Delivery, folderReady?: Promise<unknown>): Entry {
    return {
      event,
      delivery,
      deliveryWriter: new SerialJsonWriter(
        join(this.dir, event.id, 'delivery.json'),
        () => delivery,
        folderReady,
      ),
    };
  }
}

/** The wire's notification fields, read from its schema when a notification is first shown. */
const wireFields = builtOnFirstUse(() => Object.keys(notificationSchema().shape) as (keyof Notification)[]);

/** The Wire's view of a stored notification: the fields of the wire's notification schema. */
export function toWireNotification(event: StoredNotification): Notification {
  return Object.fromEntries(wireFields().map((key) => [key, event[key]])) as Notification;
}
