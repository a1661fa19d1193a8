import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSession } from '../session/session.js';
import { CronBook } from '../tools/cron/cron-book.js';
import { CRON_FILE, openSessionCron } from './session-cron.js';
import { forkSession } from './session-fork.js';

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'kimi-ts-cron-session-'));
  roots.push(root);
  return root;
}

describe("the session's scheduled prompts", () => {
  it('are restored when the session is opened again, and not inherited by a fork', async () => {
    const root = await tempRoot();
    const home = join(root, 'home');
    const session = await createSession({ home, workDir: join(root, 'work') });
    await writeFile(
      session.contextFile,
      `${JSON.stringify({ role: 'user', content: [{ type: 'text', text: 'hi' }] })}\n`,
    );
    const book = await openSessionCron(session.dir);
    const job = book.add({
      kind: 'cron',
      cron: '*/5 * * * *',
      recurring: true,
      prompt: 'poll',
      createdBy: 'user',
    });
    await book.flush();
    const fork = await forkSession(session, { home });
    expect((await CronBook.open(join(fork.dir, CRON_FILE))).list()).toEqual([]);
    expect((await CronBook.open(join(session.dir, CRON_FILE))).list()).toEqual([job]);
  });
});
