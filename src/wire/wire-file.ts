import { type FileHandle, mkdir, open, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { WireMessage } from './message.js';
import { wireMessageToJSON } from './message-json.js';
import { wireMessageFromJSON } from './parse.js';

/**
 * The wire.jsonl format of Kimi CLI: a header line `{"type":"metadata","protocol_version":"1.10"}`,
 * then one line per merged message, `{"timestamp": <unix seconds>, "message": {"type", "payload"}}`.
 */

export const WIRE_PROTOCOL_VERSION = '1.10';
/** The version of a file written before files had a header. */
export const WIRE_PROTOCOL_LEGACY_VERSION = '1.1';

export interface WireRecord {
  /** Unix time in seconds. */
  timestamp: number;
  message: WireMessage;
}

/** A line that could not be loaded, with its 1-based number. */
export interface WireFileProblem {
  line: number;
  message: string;
}

export interface WireFileContents {
  protocolVersion: string;
  records: WireRecord[];
  /** Lines that were skipped, and why. */
  problems: WireFileProblem[];
  /** True when the last line was cut short (a crash while writing); everything before it loaded. */
  tornTail: boolean;
}

export function metadataLine(version = WIRE_PROTOCOL_VERSION): string {
  return `${JSON.stringify({ type: 'metadata', protocol_version: version })}\n`;
}

export function recordLine(message: WireMessage, timestamp: number): string {
  return `${JSON.stringify({ timestamp, message: wireMessageToJSON(message) })}\n`;
}

/**
 * Opens a wire.jsonl for appending (creating it and its folder) and returns what must be written
 * before the first record: the header for a new or empty file, or a newline if an earlier writer was
 * cut mid-line, so the new record does not glue onto the torn one.
 */
export async function openWireFileForAppend(path: string): Promise<{ handle: FileHandle; prefix: string }> {
  await mkdir(dirname(path), { recursive: true });
  const handle = await open(path, 'a+');
  try {
    const { size } = await handle.stat();
    if (size === 0) return { handle, prefix: metadataLine() };
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return { handle, prefix: last[0] === 0x0a ? '' : '\n' };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Appends messages to a wire.jsonl outside a run (e.g. a wire-mode `set_plan_mode` status). */
export async function appendWireMessages(
  path: string,
  messages: readonly WireMessage[],
  timestamp = Date.now() / 1000,
): Promise<void> {
  const { handle, prefix } = await openWireFileForAppend(path);
  try {
    let text = prefix;
    for (const message of messages) text += recordLine(message, timestamp);
    await handle.appendFile(text, 'utf8');
  } finally {
    await handle.close();
  }
}

/**
 * Loads a wire.jsonl file. Never throws for bad content: a line that is not valid JSON or not a valid
 * message is skipped and reported in `problems`, and a torn last line sets `tornTail`. A missing file
 * reads as empty. I/O errors other than a missing file are thrown.
 */
export async function readWireFile(path: string): Promise<WireFileContents> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return { protocolVersion: WIRE_PROTOCOL_VERSION, records: [], problems: [], tornTail: false };
    }
    throw error;
  }
  return parseWireFile(text);
}

export function parseWireFile(text: string): WireFileContents {
  const lines = text.split('\n');
  // A file that does not end in a newline was cut while its last line was being written.
  const unterminated = lines.pop() ?? '';
  if (unterminated.trim() !== '') lines.push(unterminated);
  const lastIndex = lines.length - 1;

  const contents: WireFileContents = {
    protocolVersion: WIRE_PROTOCOL_LEGACY_VERSION,
    records: [],
    problems: [],
    tornTail: false,
  };
  let seenContent = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      if (i === lastIndex && unterminated.trim() !== '') {
        contents.tornTail = true;
        contents.problems.push({
          line: i + 1,
          message: `The last line is incomplete (${line.length} characters), probably cut by a crash; everything before it was loaded.`,
        });
      } else {
        contents.problems.push({ line: i + 1, message: 'Not valid JSON.' });
      }
      continue;
    }
    if (isMetadata(value)) {
      if (!seenContent) contents.protocolVersion = value.protocol_version;
      seenContent = true;
      continue;
    }
    seenContent = true;
    const record = parseRecord(value);
    if (typeof record === 'string') contents.problems.push({ line: i + 1, message: record });
    else contents.records.push(record);
  }
  return contents;
}

function isMetadata(value: unknown): value is { type: 'metadata'; protocol_version: string } {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return v.type === 'metadata' && typeof v.protocol_version === 'string';
}

function parseRecord(value: unknown): WireRecord | string {
  if (typeof value !== 'object' || value === null) return 'Not a wire record (expected an object).';
  const { timestamp, message } = value as Record<string, unknown>;
  if (typeof timestamp !== 'number') return 'Not a wire record: `timestamp` must be a number.';
  try {
    return { timestamp, message: wireMessageFromJSON(message) };
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
