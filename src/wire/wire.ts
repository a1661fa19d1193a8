import { copyPart, mergeInPlace } from '../kosong/merge.js';
import type { WriteFence } from '../util/write-fence.js';
import type { MergeableEvent } from './events.js';
import { isWireRequest, type WireMessage } from './message.js';
import { WireRecorder } from './recorder.js';
import type { WireRedaction } from './redaction.js';
import type { WireRequest } from './requests.js';
import { WireSubscription } from './subscription.js';

export interface WireOptions {
  /** Append every merged message to this wire.jsonl file. */
  file?: string | undefined;
  /** Called once if recording fails (default: a process warning); the recorder then stops writing, the run goes on. */
  onRecordError?: ((error: unknown) => void) | undefined;
  /**
   * Secrets out of everything sent: raw subscribers get each fragment redacted, merged subscribers
   * (front ends, the wire.jsonl recorder) the merged message redacted.
   */
  redaction?: WireRedaction | undefined;
  /** A check each write of wire.jsonl must pass first (a fleet worker's lease); throwing stops recording. */
  recordFence?: WriteFence | undefined;
}

export interface SubscribeOptions {
  /** true: consecutive fragments arrive merged into complete parts; false: every fragment as sent. */
  merge: boolean;
}

/**
 * The channel from the soul to its front ends (seed 002 §3): one producer, any number of subscribers.
 * Raw subscribers get every message as sent; merged subscribers get streamed fragments coalesced by
 * kosong's merge rules, and the optional recorder writes those merged messages to wire.jsonl. The
 * producer never waits: `send` only appends to each subscriber's queue.
 */
export class Wire {
  private rawSubscribers: WireSubscription[] = [];
  private mergedSubscribers: WireSubscription[] = [];
  private mergeBuffer: MergeableEvent | null = null;
  private closed = false;
  private readonly pending = new Set<WireRequest>();
  private readonly recorder: WireRecorder | null;
  private readonly redaction: WireRedaction | undefined;

  constructor(options: WireOptions = {}) {
    this.redaction = options.redaction;
    this.recorder =
      options.file === undefined
        ? null
        : new WireRecorder(
            options.file,
            this.subscribe({ merge: true }),
            options.onRecordError,
            options.recordFence,
          );
  }

  get isShutDown(): boolean {
    return this.closed;
  }

  /**
   * Sends a message to every subscriber. After shutdown messages are dropped, and a request is
   * cancelled at once so that nobody waits for an answer that cannot come.
   */
  send(sent: WireMessage): void {
    const message = this.redaction ? this.redaction.redactDeep(sent) : sent;
    if (this.closed) {
      if (isWireRequest(message)) message.cancel('The wire was shut down before the request was sent.');
      return;
    }
    const raw = this.rawSubscribers;
    for (let i = 0; i < raw.length; i++) raw[i]!.push(message);

    const type = message.type;
    if (type === 'ContentPart' || type === 'ToolCall' || type === 'ToolCallPart') {
      const buffer = this.mergeBuffer;
      if (buffer !== null && mergeInPlace(buffer.payload, message.payload)) return;
      if (buffer !== null) this.publishMerged(buffer);
      // A copy, because merging mutates the buffer and the original went to raw subscribers.
      this.mergeBuffer = { type, payload: copyPart(message.payload) } as MergeableEvent;
      return;
    }
    this.flush();
    if (isWireRequest(message)) this.track(message);
    this.publishMerged(message);
  }

  /** Delivers the fragment being merged, if any, to merged subscribers now. */
  flush(): void {
    const buffer = this.mergeBuffer;
    if (buffer === null) return;
    this.mergeBuffer = null;
    this.publishMerged(buffer);
  }

  /**
   * A new subscriber; it receives what is sent from now on. Subscribe before the soul starts sending
   * (a UI loop does it before its first await) to see everything.
   */
  subscribe(options: SubscribeOptions): WireSubscription {
    const list = options.merge ? this.mergedSubscribers : this.rawSubscribers;
    const subscription = new WireSubscription(options.merge, (gone) => this.unsubscribe(gone));
    if (this.closed) subscription.end();
    else list.push(subscription);
    return subscription;
  }

  /** Requests sent on this wire that nobody has answered or cancelled yet. */
  get pendingRequests(): WireRequest[] {
    return [...this.pending].filter((request) => request.isPending);
  }

  /** Cancels every unanswered request sent on this wire (each with its type's cancel outcome). */
  cancelPendingRequests(reason: string): void {
    for (const request of this.pending) request.cancel(reason);
    this.pending.clear();
  }

  /**
   * Flushes the merge buffer and ends every subscription: each subscriber still reads everything sent
   * before, then its iteration ends. Idempotent.
   */
  shutdown(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    for (const subscription of this.rawSubscribers) subscription.end();
    for (const subscription of this.mergedSubscribers) subscription.end();
    this.rawSubscribers = [];
    this.mergedSubscribers = [];
  }

  /** Resolves when the recorder has written everything sent before shutdown and closed the file. */
  async join(): Promise<void> {
    await this.recorder?.done;
  }

  private publishMerged(published: WireMessage): void {
    // Again once merged: a secret split across streamed fragments is whole only now.
    const message = this.redaction ? this.redaction.redactDeep(published) : published;
    const merged = this.mergedSubscribers;
    for (let i = 0; i < merged.length; i++) merged[i]!.push(message);
  }

  private track(request: WireRequest): void {
    if (this.pending.size >= 64) {
      for (const known of this.pending) if (!known.isPending) this.pending.delete(known);
    }
    this.pending.add(request);
  }

  private unsubscribe(subscription: WireSubscription): void {
    if (subscription.merged)
      this.mergedSubscribers = this.mergedSubscribers.filter((s) => s !== subscription);
    else this.rawSubscribers = this.rawSubscribers.filter((s) => s !== subscription);
  }
}
