import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describeSkippedLine, readBoundedLines } from '../../../util/bounded-lines.js';
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
  // Each line bounded (the folder may come from a ZIP of someone else's): a longer line is skipped
  // as it streams past, and the model's problems name it.
  const { terminated } = await readBoundedLines(
    wireFile,
    (line) => {
      const text = redact(line);
      if (builder.addLine(text)) events.push(text);
    },
    {
      onSkipped: (skipped) => {
        if (builder.addLine('', describeSkippedLine(skipped)))
          events.push(JSON.stringify({ skipped_line: skipped.line, bytes: skipped.bytes }));
      },
    },
  );
  const context: string[] = [];
  await readBoundedLines(
    join(dir, 'context.jsonl'),
    (line) => {
      if (line.trim() !== '') context.push(redact(line));
    },
    {
      onSkipped: (skipped) =>
        context.push(
          JSON.stringify({ role: '_skipped', line: skipped.line, note: describeSkippedLine(skipped) }),
        ),
    },
  );
  const model = builder.finish(terminated);
  // Untitled: the first prompt names it, as every session list does.
  if (title === UNTITLED_SESSION) model.title = model.turns.find((t) => t.lane === 0)?.input || title;
  return { model, events, context };
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
