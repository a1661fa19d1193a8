import { createReadStream } from 'node:fs';
import { open, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isRecord, shorten } from './labels.js';
import { SessionModelBuilder } from './session-model-builder.js';
import type { VisModel } from './vis-model.js';

/** A session as vis serves it: the model, and the raw lines its event indices point into. */
export interface LoadedSession {
  model: VisModel;
  /** wire.jsonl's events (non-empty lines after the header), redacted; `events[i]` is event i. */
  events: string[];
  /** context.jsonl's non-empty lines, redacted. */
  context: string[];
}

export interface ReadOptions {
  /** Replaces secrets in a line (the session's files should hold none; this is the second lock). */
  redact?: (text: string) => string;
}

/**
 * Reads a session folder (`wire.jsonl`, `context.jsonl`, `state.json`, `subagents/*\/meta.json`),
 * streaming wire.jsonl line by line. Missing files read as empty; a folder still being written is
 * read up to its last complete line.
 */
export async function readSessionFolder(
  dir: string,
  id: string,
  options: ReadOptions = {},
): Promise<LoadedSession> {
  const redact = options.redact ?? ((text: string) => text);
  const [title, laneLabels] = await Promise.all([readTitle(dir), readSubagentLabels(dir)]);
  const builder = new SessionModelBuilder(id, redact(title), laneLabels);
  const events: string[] = [];
  const wireFile = join(dir, 'wire.jsonl');
  const terminated = await endsWithNewline(wireFile);
  await eachLine(wireFile, (line) => {
    const text = redact(line);
    if (builder.addLine(text)) events.push(text);
  });
  const context: string[] = [];
  await eachLine(join(dir, 'context.jsonl'), (line) => {
    if (line.trim() !== '') context.push(redact(line));
  });
  const model = builder.finish(terminated);
  // Untitled: the first prompt names it, as every session list does.
  if (title === UNTITLED_SESSION) model.title = model.turns.find((t) => t.lane === 0)?.input || title;
  return { model, events, context };
}

/**
 * Calls `onLine` for each line of the file, reading it in 1 MiB chunks (readline's per-line cost is
 * most of the time on a 10,000-step session). A missing file has no lines.
 */
async function eachLine(path: string, onLine: (line: string) => void): Promise<void> {
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 });
  let rest = '';
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      const text = rest + chunk;
      let start = 0;
      for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
        onLine(text.slice(start, end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end));
        start = end + 1;
      }
      rest = text.slice(start);
    }
    if (rest !== '') onLine(rest);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  } finally {
    stream.destroy();
  }
}

async function endsWithNewline(path: string): Promise<boolean> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(path, 'r');
    const { size } = await handle.stat();
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } catch {
    return true;
  } finally {
    await handle?.close();
  }
}

async function readTitle(dir: string): Promise<string> {
  try {
    const state: unknown = JSON.parse(await readFile(join(dir, 'state.json'), 'utf8'));
    if (isRecord(state) && typeof state.custom_title === 'string') return shorten(state.custom_title, 200);
  } catch {
    // No state (or a broken one): the session is shown untitled.
  }
  return UNTITLED_SESSION;
}

const UNTITLED_SESSION = 'untitled session';

async function readSubagentLabels(dir: string): Promise<Map<string, string>> {
  const labels = new Map<string, string>();
  let names: string[];
  try {
    names = await readdir(join(dir, 'subagents'));
  } catch {
    return labels;
  }
  await Promise.all(
    names.map(async (name) => {
      try {
        const meta: unknown = JSON.parse(await readFile(join(dir, 'subagents', name, 'meta.json'), 'utf8'));
        if (!isRecord(meta)) return;
        const type = typeof meta.subagent_type === 'string' ? meta.subagent_type : 'subagent';
        const description = typeof meta.description === 'string' ? meta.description : '';
        labels.set(name, shorten(`${type}: ${description}`, 60));
      } catch {
        // A subagent without a readable record keeps its id as its label.
      }
    }),
  );
  return labels;
}
