import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSession, type Session, sessionsDir } from '../session/session.js';
import { SESSION_LOCK_FILE, SessionLockedError } from '../session/session-lock.js';
import { readSessionState } from '../session/state.js';
import { SessionCatalog } from './session-catalog.js';

let root: string;
let home: string;
let workDir: string;
let catalog: SessionCatalog;
let holder: ChildProcess | null = null;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-catalog-'));
  home = join(root, 'home');
  workDir = join(root, 'work');
  catalog = new SessionCatalog(home, { env: {} });
});
afterEach(async () => {
  holder?.stdin?.end();
  if (holder && holder.exitCode === null) await new Promise((resolve) => holder?.once('exit', resolve));
  holder = null;
  await rm(root, { recursive: true, force: true });
});

async function sessionWithATurn(): Promise<Session> {
  const session = await createSession({ home, workDir });
  const user = { role: 'user', content: [{ type: 'text', text: 'hello' }] };
  await writeFile(session.contextFile, `${JSON.stringify(user)}\n`);
  return session;
}

/**
 * Another process holds the session: a live child process, named as the owner in the session's lock
 * file as lockSession writes it (unit tests cannot run our TypeScript in a child; e2e tests open the
 * same session with two real kimi-ts processes).
 */
async function holdInAnotherProcess(session: Session): Promise<void> {
  const child = spawn(process.execPath, ['-e', 'process.stdin.resume()'], {
    stdio: ['pipe', 'ignore', 'inherit'],
  });
  holder = child;
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  await writeFile(
    join(session.dir, SESSION_LOCK_FILE),
    `${JSON.stringify({ pid: child.pid, started: null, host: hostname() })}\n`,
  );
}

describe('SessionCatalog', () => {
  it('refuses to delete a session another process holds, and removes nothing', async () => {
    const session = await sessionWithATurn();
    await holdInAnotherProcess(session);
    const before = (await readdir(session.dir)).sort();
    await expect(catalog.delete(session)).rejects.toBeInstanceOf(SessionLockedError);
    expect((await readdir(session.dir)).sort()).toEqual(before);
    expect(await readFile(session.contextFile, 'utf8')).toContain('hello');
    expect(await readdir(sessionsDir(home, workDir))).toEqual([session.id]);
  });

  it('deletes a free session whole, leaving nothing aside', async () => {
    const session = await sessionWithATurn();
    await catalog.delete(session);
    expect(await readdir(sessionsDir(home, workDir))).toEqual([]);
    expect(await catalog.list(workDir)).toEqual([]);
  });

  it('deletes a session once its holder has let go', async () => {
    const session = await sessionWithATurn();
    await holdInAnotherProcess(session);
    await expect(catalog.delete(session)).rejects.toBeInstanceOf(SessionLockedError);
    const exited = new Promise((resolve) => holder?.once('exit', resolve));
    holder?.stdin?.end();
    await exited;
    // Its lock is stale now (the owner is gone): taken over, and the session removed.
    await catalog.delete(session);
    expect(await readdir(sessionsDir(home, workDir))).toEqual([]);
  });

  it('renames with a title of the user (not a generated one), lists and forks', async () => {
    const session = await sessionWithATurn();
    await catalog.rename(session, 'My work');
    const state = await readSessionState(session.stateFile);
    expect(state.custom_title).toBe('My work');
    expect(state.title_generated).toBe(false);
    const fork = await catalog.fork(session);
    const titles = (await catalog.list(workDir)).map((s) => s.title).sort();
    expect(titles).toEqual(['Fork: My work', 'My work']);
    expect(await readFile(fork.contextFile, 'utf8')).toContain('hello');
  });

  it('exports as Markdown and as a ZIP with secrets redacted; the ZIP imports back', async () => {
    const secret = 'sk-catalog-test-0123456789abcdef';
    const withSecret = new SessionCatalog(home, { env: { KIMI_API_KEY: secret } });
    const session = await createSession({ home, workDir });
    const user = { role: 'user', content: [{ type: 'text', text: `my key is ${secret}` }] };
    await writeFile(session.contextFile, `${JSON.stringify(user)}\n`);
    await writeFile(session.wireFile, `${JSON.stringify({ type: 'metadata', protocol_version: '1.10' })}\n`);
    const markdown = await withSecret.exportMarkdown(session);
    expect(markdown).toContain('my key is');
    expect(markdown).not.toContain(secret);
    const zip = join(root, 'session.zip');
    await withSecret.exportZip(session, { output: zip, overwrite: false });
    const imported = await withSecret.importArchive(zip);
    // The original still exists in this home, so the copy is `<id>-2`.
    expect(imported).toMatchObject({ id: `${session.id}-2`, alreadyImported: false });
    expect(await readFile(join(imported.dir, 'context.jsonl'), 'utf8')).not.toContain(secret);
  });
});
