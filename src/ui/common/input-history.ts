import { mkdir, open, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { workDirKey } from '../../session/work-dir-key.js';

/** Entries kept for the up arrow. */
const HISTORY_SIZE = 1000;

/**
 * What the user typed at the shell's prompt in a work dir, kept across sessions in
 * `<home>/user-history/<work-dir key>.jsonl` (the place and shape Kimi CLI uses: one
 * `{"content": …}` per line). Appended to only; a torn or foreign line is skipped when read.
 */
export class InputHistory {
  private last: string | undefined;

  private constructor(readonly file: string) {}

  static forWorkDir(home: string, workDir: string): InputHistory {
    return new InputHistory(join(home, 'user-history', `${workDirKey(workDir)}.jsonl`));
  }

  /** The entries, newest first (as readline wants them); none if the file is missing or unreadable. */
  async load(): Promise<string[]> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch {
      return [];
    }
    const entries: string[] = [];
    for (const line of text.split('\n')) {
      const content = parseEntry(line);
      if (content !== null && content !== entries.at(-1)) entries.push(content);
    }
    this.last = entries.at(-1);
    return entries.slice(-HISTORY_SIZE).reverse();
  }

  /** Adds a prompt (not a repeat of the one before). Failing to save only loses history. */
  async add(content: string): Promise<void> {
    if (!content.trim() || content === this.last) return;
    this.last = content;
    try {
      await mkdir(dirname(this.file), { recursive: true });
      const handle = await open(this.file, 'a+');
      try {
        // After a torn last line (a crash mid-write) the entry starts a line of its own.
        const { size } = await handle.stat();
        const last = Buffer.alloc(1);
        if (size > 0) await handle.read(last, 0, 1, size - 1);
        const separator = size > 0 && last[0] !== 0x0a ? '\n' : '';
        await handle.write(`${separator}${JSON.stringify({ content })}\n`);
      } finally {
        await handle.close();
      }
    } catch {
      // History is a convenience: a read-only home must not break the shell.
    }
  }
}

function parseEntry(line: string): string | null {
  if (!line.trim()) return null;
  try {
    const value = JSON.parse(line) as { content?: unknown };
    return typeof value?.content === 'string' && value.content.trim() ? value.content : null;
  } catch {
    return null;
  }
}
