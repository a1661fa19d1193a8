import { setImmediate as nextTurn } from 'node:timers/promises';
import { wireMessageToJSON } from '../../../wire/message-json.js';
import { readWireFile } from '../../../wire/wire-file.js';
import { eventFrame } from './jsonrpc.js';
import type { OutboundFrame, WireTransport } from './transport.js';

export interface ReplayResult {
  status: 'finished' | 'cancelled';
  events: number;
  requests: number;
}

/** Records per write; between batches the server reads stdin (a `cancel`) and the output drains. */
const REPLAY_BATCH = 256;

/**
 * Re-sends a session's wire.jsonl to the client, every record as an `event` notification: a past
 * approval request is history, not a question (sent as a `request` with its old id, a client would
 * answer it, approving nothing real). `requests` stays 0, as in Kimi CLI's summary. Lines the
 * reader could not load are skipped. Stops early with `cancelled` once `signal` aborts.
 */
export async function replayWireFile(
  path: string,
  writer: WireTransport,
  signal: AbortSignal,
): Promise<ReplayResult> {
  const result: ReplayResult = { status: 'finished', events: 0, requests: 0 };
  const { records } = await readWireFile(path);
  for (let start = 0; start < records.length; start += REPLAY_BATCH) {
    if (signal.aborted || writer.failed) break;
    const frames: OutboundFrame[] = [];
    for (const { message } of records.slice(start, start + REPLAY_BATCH)) {
      frames.push(eventFrame(wireMessageToJSON(message)));
      result.events++;
    }
    writer.send(frames);
    // Waiting for the output bounds memory on a large file and lets a `cancel` line be read.
    await writer.flush();
    await nextTurn();
  }
  if (signal.aborted) result.status = 'cancelled';
  return result;
}
