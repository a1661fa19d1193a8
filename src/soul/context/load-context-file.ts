import type { Message } from '../../kosong/index.js';
import { describeSkippedLine, MAX_SESSION_LINE_BYTES } from '../../util/bounded-lines.js';
import { parseContextLine } from './context-records.js';
import { estimatedChars } from './token-estimate.js';

/** A line that restore skipped or cut, and why. Never quotes the line (it may hold secrets). */
export interface ContextWarning {
  /** 1-based line number in the file as it was read. */
  line: number;
  problem: string;
}

/** Where a checkpoint sits and what the context looked like just before it. */
export interface CheckpointMark {
  id: number;
  /** Byte offset of the checkpoint's line: the file is cut here to revert to it. */
  offset: number;
  historyLength: number;
  recordedTokens: number;
  pendingChars: number;
}

export interface LoadedContext {
  systemPrompt: string | null;
  history: Message[];
  checkpoints: CheckpointMark[];
  nextCheckpointId: number;
  /** The last API-reported token count. */
  recordedTokens: number;
  /** Characters of the messages after the last usage record, for the estimate. */
  pendingChars: number;
  /** Bytes of the file that hold the loaded state; anything after them is to be cut off. */
  keptBytes: number;
  /** The kept part ends with a complete record that lacks its newline. */
  needsNewline: boolean;
  warnings: ContextWarning[];
}

/** An assistant message with tool calls whose tool messages have not all followed yet. */
interface OpenToolGroup {
  offset: number;
  historyLength: number;
  pendingChars: number;
  awaiting: Set<string>;
}

const NEWLINE = 0x0a;

/**
 * Rebuilds a context from the bytes of `context.jsonl`, tolerating what a crash or an editor can
 * leave behind:
 * - a complete line that is malformed is skipped with a warning (it stays in the file);
 * - an unterminated last line is a torn write: kept if it parses, otherwise cut off;
 * - an assistant message at the end whose tool messages are not all there is a torn context
 *   growth (the soul writes them in one call, so they exist together or not at all): it is cut off
 *   too, so the history the model sees never has tool calls without results.
 * One pass over the buffer, so a 10,000-step session loads in linear time.
 */
export function loadContextBytes(bytes: Uint8Array): LoadedContext {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: LoadedContext = {
    systemPrompt: null,
    history: [],
    checkpoints: [],
    nextCheckpointId: 0,
    recordedTokens: 0,
    pendingChars: 0,
    keptBytes: buffer.length,
    needsNewline: false,
    warnings: [],
  };
  let group: OpenToolGroup | null = null;
  let lineNumber = 0;
  let offset = 0;
  while (offset < buffer.length) {
    lineNumber++;
    const newline = buffer.indexOf(NEWLINE, offset);
    const terminated = newline !== -1;
    const end = terminated ? newline : buffer.length;
    if (terminated && end - offset > MAX_SESSION_LINE_BYTES) {
      // Not decoded: a string of it would double what the file already costs.
      out.warnings.push({
        line: lineNumber,
        problem: `skipped: ${describeSkippedLine({ line: lineNumber, bytes: end - offset })}`,
      });
      offset = newline + 1;
      continue;
    }
    const text = buffer.toString('utf8', offset, end);
    const lineStart = offset;
    offset = terminated ? newline + 1 : buffer.length;
    if (text.trim() === '') {
      if (!terminated) out.keptBytes = lineStart;
      continue;
    }
    const parsed = parseContextLine(text);
    if (!parsed.ok) {
      if (terminated) {
        out.warnings.push({ line: lineNumber, problem: `skipped: ${parsed.problem}` });
      } else {
        out.warnings.push({ line: lineNumber, problem: `cut off: incomplete last line (${parsed.problem})` });
        out.keptBytes = lineStart;
      }
      continue;
    }
    if (!terminated) out.needsNewline = true;
    const record = parsed.record;
    switch (record.kind) {
      case 'system_prompt':
        out.systemPrompt = record.content;
        group = null;
        break;
      case 'checkpoint':
        out.checkpoints.push({
          id: record.id,
          offset: lineStart,
          historyLength: out.history.length,
          recordedTokens: out.recordedTokens,
          pendingChars: out.pendingChars,
        });
        out.nextCheckpointId = record.id + 1;
        group = null;
        break;
      case 'usage':
        out.recordedTokens = record.tokenCount;
        out.pendingChars = 0;
        group = null;
        break;
      case 'message': {
        const message = record.message;
        if (
          group &&
          message.role === 'tool' &&
          message.tool_call_id !== undefined &&
          group.awaiting.has(message.tool_call_id)
        ) {
          group.awaiting.delete(message.tool_call_id);
          if (group.awaiting.size === 0) group = null;
        } else if (message.role === 'assistant' && message.tool_calls?.length) {
          group = {
            offset: lineStart,
            historyLength: out.history.length,
            pendingChars: out.pendingChars,
            awaiting: new Set(message.tool_calls.map((call) => call.id)),
          };
        } else {
          group = null;
        }
        out.history.push(message);
        out.pendingChars += estimatedChars(message);
        break;
      }
    }
  }
  if (group) dropTornGroup(out, group, lineNumber);
  return out;
}

function dropTornGroup(out: LoadedContext, group: OpenToolGroup, lastLine: number): void {
  const dropped = out.history.length - group.historyLength;
  out.history.length = group.historyLength;
  out.pendingChars = group.pendingChars;
  out.keptBytes = group.offset;
  out.needsNewline = false;
  out.warnings.push({
    line: lastLine,
    problem: `cut off: the last ${dropped} message(s) were an incomplete tool-call step (assistant message without all its tool results)`,
  });
}
