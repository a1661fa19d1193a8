import { createHash } from 'node:crypto';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ZipFile } from 'yazl';

export interface FixtureEntry {
  name: string;
  data: Buffer | string;
  /** Unix mode with the type bits (0o120777: a symbolic link). */
  mode?: number;
  /** false: stored (no deflate). */
  compress?: boolean;
}

/**
 * A ZIP of `entries` (yazl). `rename` then swaps entry names byte for byte in the local and central
 * headers: yazl refuses to write hostile names, so a test writes a same-length placeholder and
 * turns it into `..`, a backslash or a control character afterwards.
 */
export async function zipOf(entries: FixtureEntry[], rename: Record<string, string> = {}): Promise<Buffer> {
  const zip = new ZipFile();
  for (const entry of entries) {
    zip.addBuffer(Buffer.from(entry.data), entry.name, {
      compress: entry.compress ?? true,
      ...(entry.mode === undefined ? {} : { mode: entry.mode }),
    });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  let out: Buffer = Buffer.concat(chunks);
  for (const [from, to] of Object.entries(rename)) out = replaceAll(out, Buffer.from(from), Buffer.from(to));
  return out;
}

function replaceAll(haystack: Buffer, from: Buffer, to: Buffer): Buffer {
  if (from.length !== to.length) throw new Error('a renamed entry keeps its length');
  let at = haystack.indexOf(from);
  while (at !== -1) {
    to.copy(haystack, at);
    at = haystack.indexOf(from, at + to.length);
  }
  return haystack;
}

/** Sets the uncompressed size the central directory declares for every entry (a lying header). */
export function declareUncompressedSize(zip: Buffer, size: number): Buffer {
  const out = Buffer.from(zip);
  let at = out.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
  while (at !== -1) {
    out.writeUInt32LE(size, at + 24);
    at = out.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at + 4);
  }
  return out;
}

/** A manifest for `files`, as `kimi-ts export --zip` writes it. */
export function manifestFor(files: Record<string, string>, sessionId = 'sess-1'): string {
  return JSON.stringify({
    format: 'kimi-ts-session-archive',
    format_version: 1,
    kimi_ts_version: '0.0.0-test',
    session_id: sessionId,
    work_dir: '/work/project',
    title: null,
    created_at: null,
    exported_at: new Date(0).toISOString(),
    files: Object.entries(files).map(([path, data]) => ({
      path,
      size: Buffer.byteLength(data),
      sha256: createHash('sha256').update(data).digest('hex'),
    })),
  });
}

/** The entries of a valid archive with `files` and their manifest. */
export function archiveEntries(files: Record<string, string>, sessionId?: string): FixtureEntry[] {
  return [
    { name: 'manifest.json', data: manifestFor(files, sessionId) },
    ...Object.entries(files).map(([name, data]) => ({ name, data })),
  ];
}

export const WIRE = `${[
  JSON.stringify({ type: 'metadata', protocol_version: '1.10' }),
  JSON.stringify({
    timestamp: 1_700_000_000.5,
    message: { type: 'TurnBegin', payload: { user_input: 'hi' } },
  }),
  JSON.stringify({ timestamp: 1_700_000_001, message: { type: 'TurnEnd', payload: {} } }),
].join('\n')}\n`;

/**
 * A session folder as kimi-ts leaves it, with what must never travel: the lock, a background task's
 * raw output, and a symbolic link (to `outside`) named like a context file.
 */
export async function writeSessionFolder(dir: string, outside: string): Promise<void> {
  await mkdir(join(dir, 'subagents', 'agent-1'), { recursive: true });
  await mkdir(join(dir, 'tasks', 'bash-1'), { recursive: true });
  await writeFile(join(dir, 'wire.jsonl'), WIRE);
  await writeFile(join(dir, 'context.jsonl'), '{"role":"user","content":"hi"}\n');
  await writeFile(join(dir, 'state.json'), '{"version":1,"custom_title":"A title"}');
  await writeFile(join(dir, 'checkpoints.jsonl'), '{"n":1}\n');
  await writeFile(join(dir, 'subagents', 'agent-1', 'meta.json'), '{"agent_id":"agent-1"}');
  await writeFile(join(dir, 'subagents', 'agent-1', 'wire.jsonl'), WIRE);
  await writeFile(join(dir, 'tasks', 'bash-1', 'output.log'), 'raw output\n');
  await writeFile(join(dir, 'session.lock'), '{"pid":1}');
  await writeFile(outside, 'OUTSIDE SECRET FILE\n');
  await symlink(outside, join(dir, 'context_1.jsonl'));
}
