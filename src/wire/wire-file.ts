import { type FileHandle, mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { describeSkippedLine, readBoundedLines } from '../util/bounded-lines.js';
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

/** A line of a wire file, numbered from 1, or the note that it was too long to read. */
export type WireFileLine = { line: number; text: string } | { line: number; skipped: string };

/**
 * Loads a wire.jsonl file, a line at a time with each line bounded (MAX_SESSION_LINE_BYTES): the
 * file may come from elsewhere, and one huge line must not hold the reader at gigabytes. Never
 * throws for bad content: a line that is not valid JSON, not a valid message or too long is skipped
 * and reported in `problems` by its number, and a torn last line sets `tornTail`. A missing file
 * reads as empty. I/O errors other than a missing file are thrown. `end` (inclusive) reads only the
 * file's first bytes (a replay of what was there when a host opened).
 */
export async function readWireFile(path: string, range: { end?: number } = {}): Promise<WireFileContents> {
  const lines: WireFileLine[] = [];
  const { terminated } = await readBoundedLines(
    path,
    (text, line) => {
      if (text.trim() !== '') lines.push({ line, text });
    },
    {
      end: range.end,
      onSkipped: (skipped) => lines.push({ line: skipped.line, skipped: describeSkippedLine(skipped) }),
    },
  );
  return parseWireLines(lines, terminated);
}

export function parseWireFile(text: string): WireFileContents {
  const lines: WireFileLine[] = text
    .split('\n')
    .map((line, i) => ({ line: i + 1, text: line }))
    .filter((line) => line.text.trim() !== '');
  return parseWireLines(lines, text === '' || text.endsWith('\n'));
}

/** Parses the non-empty lines of a wire file; `terminated`: the file ends with a newline. */
export function parseWireLines(lines: readonly WireFileLine[], terminated: boolean): WireFileContents {
  const contents: WireFileContents = {
    protocolVersion: WIRE_PROTOCOL_LEGACY_VERSION,
    records: [],
    problems: [],
    tornTail: false,
  };
  let seenContent = false;
  for (const [index, entry] of lines.entries()) {
    if ('skipped' in entry) {
      contents.problems.push({ line: entry.line, message: entry.skipped });
      continue;
    }
    const line = entry.text.trim();
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      // A file that does not end in a newline was cut while its last line was being written.
      if (index === lines.length - 1 && !terminated) {
        contents.tornTail = true;
        contents.problems.push({
          line: entry.line,
          message: `The last line is incomplete (${line.length} characters), probably cut by a crash; everything before it was loaded.`,
        });
      } else {
        contents.problems.push({ line: entry.line, message: 'Not valid JSON.' });
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
    if (typeof record === 'string') contents.problems.push({ line: entry.line, message: record });
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
