import { createHash } from 'node:crypto';
import { appendFile, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hasWireRecords, isSessionEmpty, sessionTitle } from './inspect.js';
import { continueSession, deleteSessionIfEmpty, formatSessionList, listSessions } from './list.js';
import { lastSessionId, readMetadata, recordLastSession } from './metadata.js';
import { createSession, openSession, type Session, SessionError, sessionsDir } from './session.js';
import { shortenTitle } from './title.js';
import { workDirKey } from './work-dir-key.js';

let home: string;
const workDir = '/projects/demo';

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'kimi-ts-sessions-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const wireHeader = `${JSON.stringify({ type: 'metadata', protocol_version: '1.10' })}\n`;

function turnBegin(userInput: unknown): string {
  return `${JSON.stringify({ timestamp: 1.5, message: { type: 'TurnBegin', payload: { user_input: userInput } } })}\n`;
}

async function startTurn(session: Session, userInput: unknown): Promise<void> {
  await appendFile(session.wireFile, wireHeader + turnBegin(userInput));
  await appendFile(session.contextFile, '{"role":"user","content":"hello"}\n');
}

describe('session folders', () => {
  it('keys the work dir by the md5 of its absolute path, as Kimi CLI does', () => {
    const md5 = createHash('md5').update('/projects/demo').digest('hex');
    expect(workDirKey('/projects/demo')).toBe(md5);
    expect(workDirKey('/projects/demo/sub/..')).toBe(md5);
    expect(sessionsDir(home, workDir)).toBe(join(home, 'sessions', md5));
  });

  it('creates a session with a UUID and an empty context.jsonl', async () => {
    const session = await createSession({ home, workDir });
    expect(session.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(session.dir).toBe(join(home, 'sessions', workDirKey(workDir), session.id));
    expect(await readFile(session.contextFile, 'utf8')).toBe('');
    expect(session.wireFile).toBe(join(session.dir, 'wire.jsonl'));
    expect(session.stateFile).toBe(join(session.dir, 'state.json'));
    expect(await hasWireRecords(session)).toBe(false);
  });

  it('resumes a session by id without touching its history, or creates it', async () => {
    const created = await openSession({ home, workDir, id: 'my-session' });
    await startTurn(created, 'first question');
    const resumed = await openSession({ home, workDir, id: 'my-session' });
    expect(resumed.dir).toBe(created.dir);
    expect(await readFile(resumed.contextFile, 'utf8')).toBe('{"role":"user","content":"hello"}\n');
    expect(await hasWireRecords(resumed)).toBe(true);
  });

  it('refuses ids that could escape the sessions folder', async () => {
    for (const id of ['../evil', 'a/b', '', '..', '.hidden']) {
      await expect(openSession({ home, workDir, id })).rejects.toBeInstanceOf(SessionError);
    }
  });
});

describe('--continue', () => {
  it('resumes the session recorded last for the work dir', async () => {
    const first = await createSession({ home, workDir });
    const second = await createSession({ home, workDir });
    await startTurn(first, 'a');
    await startTurn(second, 'b');
    await recordLastSession(home, workDir, first.id);
    expect((await continueSession({ home, workDir })).id).toBe(first.id);
    await recordLastSession(home, workDir, second.id);
    expect((await continueSession({ home, workDir })).id).toBe(second.id);
    expect(await lastSessionId(home, '/projects/demo/')).toBe(second.id);
    const metadata = await readMetadata(home);
    expect(metadata.work_dirs).toEqual([{ path: workDir, kaos: 'local', last_session_id: second.id }]);
  });

  it('falls back to the latest session when none was recorded, and fails when there is none', async () => {
    await expect(continueSession({ home, workDir })).rejects.toThrow(
      'No previous session found for the working directory',
    );
    const session = await createSession({ home, workDir });
    await expect(continueSession({ home, workDir })).rejects.toBeInstanceOf(SessionError);
    await startTurn(session, 'x');
    expect((await continueSession({ home, workDir })).id).toBe(session.id);
    await expect(continueSession({ home, workDir: '/elsewhere' })).rejects.toBeInstanceOf(SessionError);
  });

  it('keeps the metadata of other work dirs and survives a corrupt file', async () => {
    await writeFile(join(home, 'kimi-ts.json'), '{ not json');
    expect(await lastSessionId(home, workDir)).toBeNull();
    await Promise.all([recordLastSession(home, '/a', 's1'), recordLastSession(home, '/b', 's2')]);
    await recordLastSession(home, '/a', 's3');
    expect(await lastSessionId(home, '/a')).toBe('s3');
    expect(await lastSessionId(home, '/b')).toBe('s2');
    expect((await readdir(home)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});

describe('listing and titles', () => {
  it('lists non-empty sessions newest first with their titles', async () => {
    const older = await createSession({ home, workDir });
    const newer = await createSession({ home, workDir });
    const titled = await createSession({ home, workDir });
    const empty = await createSession({ home, workDir });
    await startTurn(older, 'Fix the failing   build\nin CI please');
    await startTurn(newer, [
      { type: 'text', text: 'Look at this' },
      { type: 'image_url', image_url: { url: 'x' } },
      { type: 'text', text: 'image' },
    ]);
    await writeFile(titled.stateFile, JSON.stringify({ custom_title: 'My refactor' }));
    await utimes(older.contextFile, 1000, 1000);
    await utimes(newer.contextFile, 3000, 3000);
    await utimes(titled.contextFile, 2000, 2000);

    const list = await listSessions({ home, workDir });
    expect(list.map((s) => [s.session.id, s.title])).toEqual([
      [newer.id, 'Look at this image'],
      [titled.id, 'My refactor'],
      [older.id, 'Fix the failing build in CI please'],
    ]);
    expect(list.map((s) => s.session.id)).not.toContain(empty.id);
    expect(formatSessionList(list).split('\n')[1]).toBe(
      `${titled.id}  1970-01-01T00:33:20.000Z  My refactor`,
    );
    expect(formatSessionList([])).toBe('No sessions in this working directory.');
  });

  it('shortens long first inputs to 50 characters and says Untitled without one', async () => {
    const session = await createSession({ home, workDir });
    await appendFile(session.contextFile, '{"role":"user","content":"hi"}\n');
    expect(await sessionTitle(session)).toBe('Untitled');
    const long = 'Please refactor the session module so that listing sessions is fast even with thousands';
    await appendFile(session.wireFile, wireHeader + turnBegin(long) + turnBegin('second turn'));
    const title = await sessionTitle(session);
    expect(title).toBe('Please refactor the session module so that…');
    expect(Array.from(title).length).toBeLessThanOrEqual(50);
  });

  it('shortens CJK text without splitting characters', () => {
    const text = '请'.repeat(60);
    expect(shortenTitle(text)).toBe(`${'请'.repeat(49)}…`);
    expect(shortenTitle('😀'.repeat(55))).toBe(`${'😀'.repeat(49)}…`);
    expect(shortenTitle('short')).toBe('short');
  });
});

describe('empty sessions', () => {
  it('deletes a session with only internal lines and keeps any with content', async () => {
    const empty = await createSession({ home, workDir });
    await appendFile(
      empty.contextFile,
      '{"role":"_system_prompt","content":"sys"}\n{"role":"_checkpoint","id":0}\n',
    );
    await appendFile(empty.wireFile, wireHeader);
    expect(await isSessionEmpty(empty)).toBe(true);
    expect(await deleteSessionIfEmpty(empty)).toBe(true);
    await expect(stat(empty.dir)).rejects.toThrow();

    const used = await createSession({ home, workDir });
    await startTurn(used, 'q');
    expect(await deleteSessionIfEmpty(used)).toBe(false);
    const titledOnly = await createSession({ home, workDir });
    await writeFile(titledOnly.stateFile, JSON.stringify({ custom_title: 'keep me' }));
    expect(await deleteSessionIfEmpty(titledOnly)).toBe(false);
    const contextOnly = await createSession({ home, workDir });
    await appendFile(contextOnly.contextFile, '{"role":"assistant","content":"x"}\n');
    expect(await isSessionEmpty(contextOnly)).toBe(false);
  });
});
