import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importSessionZip } from './import-session-zip.js';
import { writeSessionFolder } from './test-support/zip-fixtures.js';
import { writeSessionZip } from './write-session-zip.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-zip-export-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const SECRET = 'sk-archive-secret-0123456789';

async function exportOf(options: { overwrite?: boolean; output?: string } = {}) {
  const dir = join(root, 'session');
  await writeSessionFolder(dir, join(root, 'outside.txt'));
  // A secret the recorder did not know of yet: the export's own redaction catches it.
  await writeFile(join(dir, 'context.jsonl'), `{"role":"user","content":"key ${SECRET}"}\n`);
  const output = options.output ?? join(root, 'out', 'session.zip');
  await rm(join(root, 'out'), { recursive: true, force: true });
  await mkdir(join(root, 'out'), { recursive: true });
  return writeSessionZip({
    sessionId: 'sess-1',
    sessionDir: dir,
    workDir: '/work/project',
    title: `title with ${SECRET}`,
    output,
    overwrite: options.overwrite ?? false,
    kimiTsVersion: '9.9.9',
    redact: (text) => text.split(SECRET).join('[redacted]'),
  });
}

describe('writeSessionZip', () => {
  it('writes the session files and a manifest; leaves out the lock, task output and links', async () => {
    const { output, manifest } = await exportOf();
    expect(manifest).toMatchObject({
      format: 'kimi-ts-session-archive',
      format_version: 1,
      kimi_ts_version: '9.9.9',
      session_id: 'sess-1',
      work_dir: '/work/project',
      title: 'title with [redacted]',
      created_at: new Date(1_700_000_000_500).toISOString(),
    });
    expect(manifest.files.map((f) => f.path)).toEqual([
      'checkpoints.jsonl',
      'context.jsonl',
      'state.json',
      'subagents/agent-1/meta.json',
      'subagents/agent-1/wire.jsonl',
      'wire.jsonl',
    ]);
    expect(manifest.files.every((f) => /^[0-9a-f]{64}$/.test(f.sha256) && f.size > 0)).toBe(true);
    const bytes = await readFile(output);
    expect(bytes.includes(Buffer.from(SECRET))).toBe(false);
    expect(bytes.includes(Buffer.from('OUTSIDE SECRET FILE'))).toBe(false);
    expect(bytes.includes(Buffer.from('raw output'))).toBe(false);
    // Nothing but the archive is left beside it.
    expect(await readdir(join(root, 'out'))).toEqual(['session.zip']);

    const imported = await importSessionZip({ zipPath: output, home: join(root, 'home') });
    expect(imported).toMatchObject({ id: 'sess-1', alreadyImported: false });
    expect((await readdir(imported.dir)).sort()).toEqual([
      'checkpoints.jsonl',
      'context.jsonl',
      'manifest.json',
      'state.json',
      'subagents',
      'wire.jsonl',
    ]);
    expect(await readFile(join(imported.dir, 'context.jsonl'), 'utf8')).toContain('key [redacted]');
  });

  it('refuses to replace a file unless told to, and replaces it atomically when told', async () => {
    const output = join(root, 'out', 'session.zip');
    await exportOf({ output });
    const first = await stat(output);
    await expect(
      writeSessionZip({
        sessionId: 'sess-1',
        sessionDir: join(root, 'session'),
        workDir: '/w',
        title: null,
        output,
        overwrite: false,
        kimiTsVersion: '1',
        redact: (t) => t,
      }),
    ).rejects.toThrow(/exists; pass -y/);
    expect((await stat(output)).ino).toBe(first.ino);
    await writeSessionZip({
      sessionId: 'sess-1',
      sessionDir: join(root, 'session'),
      workDir: '/w',
      title: null,
      output,
      overwrite: true,
      kimiTsVersion: '1',
      redact: (t) => t,
    });
    expect((await stat(output)).ino).not.toBe(first.ino);
    expect(await readdir(join(root, 'out'))).toEqual(['session.zip']);
  });

  it('refuses a session with no wire.jsonl', async () => {
    const dir = join(root, 'empty');
    await mkdir(dir);
    await writeFile(join(dir, 'context.jsonl'), '');
    await expect(
      writeSessionZip({
        sessionId: 'empty',
        sessionDir: dir,
        workDir: '/w',
        title: null,
        output: join(root, 'x.zip'),
        overwrite: false,
        kimiTsVersion: '1',
        redact: (t) => t,
      }),
    ).rejects.toThrow(/no wire\.jsonl/);
    expect(await readdir(root)).toEqual(['empty']);
  });
});
