import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { METADATA_FILE, readMetadata } from './metadata.js';

// The schema the file was read with before it was read by hand: the reading must stay the same.
const workDirEntrySchema = z.looseObject({
  path: z.string(),
  kaos: z.string().default('local'),
  last_session_id: z.string().nullable().default(null),
});
const metadataSchema = z.looseObject({ work_dirs: z.array(z.unknown()).default([]) });

function bySchema(raw: unknown): unknown {
  const parsed = metadataSchema.safeParse(raw);
  if (!parsed.success) return { work_dirs: [] };
  const entries = parsed.data.work_dirs.flatMap((item) => {
    const entry = workDirEntrySchema.safeParse(item);
    return entry.success ? [entry.data] : [];
  });
  return { ...parsed.data, work_dirs: entries };
}

const home = mkdtempSync(join(tmpdir(), 'kimi-ts-metadata-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const FILES = [
  '{}',
  '[]',
  'null',
  '"x"',
  '{"work_dirs": null}',
  '{"work_dirs": {}}',
  '{"work_dirs": [], "other": {"a": 1}}',
  '{"other": 1, "work_dirs": [{"path": "/w", "kaos": "local", "last_session_id": "s1"}]}',
  '{"work_dirs": [{"path": "/w"}, {"path": 1}, {"path": "/x", "kaos": 2}, null, [], "p"]}',
  '{"work_dirs": [{"last_session_id": null, "path": "/w", "extra": [1], "kaos": "ssh"}]}',
  '{"work_dirs": [{"path": "/w", "last_session_id": 5}, {"path": "/v", "last_session_id": "s"}]}',
  '{"__proto__": {"polluted": true}, "work_dirs": [{"path": "/w", "__proto__": {"kaos": "x"}}]}',
];

describe('readMetadata', () => {
  it('reads each file as the schema did, key order included', async () => {
    for (const text of FILES) {
      writeFileSync(join(home, METADATA_FILE), text);
      const read = await readMetadata(home);
      const expected = bySchema(JSON.parse(text));
      expect(read, text).toStrictEqual(expected);
      expect(JSON.stringify(read), text).toBe(JSON.stringify(expected));
    }
  });

  it('reads a missing or broken file as empty', async () => {
    writeFileSync(join(home, METADATA_FILE), '{not json');
    expect(await readMetadata(home)).toEqual({ work_dirs: [] });
    expect(await readMetadata(join(home, 'absent'))).toEqual({ work_dirs: [] });
  });
});
