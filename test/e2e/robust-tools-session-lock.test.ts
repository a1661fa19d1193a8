import { spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { runEditor } from '../support/acp-editor.js';
import { collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { workDirSessions } from '../support/session-files.js';

/** A session made with a chosen id: a full UUID (a short one must name an existing session). */
const SHARED = '5a1ed000-0000-4000-8000-000000000001';
const STALE = '57a1e000-0000-4000-8000-000000000002';

const cli = useScriptedCli();

async function sessionDir(id: string): Promise<string> {
  return join(await workDirSessions(cli.sandbox.home), id);
}

/** A pid that belonged to a process which has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

describe('one process per session', () => {
  it('a second process on the same session fails naming the session and the owner pid', async () => {
    let release!: () => void;
    const held = new Promise((resolve) => {
      release = () => resolve(undefined);
    });
    const { server, sandbox } = await cli.setup([
      { text: 'first answer', holdUntil: held },
      { text: 'third answer' },
    ]);

    const first = sandbox.spawn(['--print', '--session', SHARED, '-p', 'one'], { input: '' });
    const firstDone = collect(first);
    // The first process is inside its turn (the model is answering) when the others start.
    await server.waitForRequests(1);

    const second = await sandbox.run(['--print', '--session', SHARED, '-p', 'two']);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`Session ${SHARED} is in use by another kimi-ts process`);
    expect(second.stderr).toContain(`pid ${first.pid}`);

    const wire = await sandbox.run(['--wire', '--session', SHARED]);
    expect(wire.code).toBe(1);
    expect(wire.stderr).toContain(`pid ${first.pid}`);

    // The line shell says so too when asked to switch to it, and goes on in its own session.
    const shell = await sandbox.run([], { input: `/sessions ${SHARED.slice(0, 8)}\n/exit\n` });
    expect(shell.code).toBe(0);
    expect(shell.stdout).toContain(
      `Error: Session ${SHARED} is in use by another kimi-ts process (pid ${first.pid})`,
    );

    // An editor loading it over ACP gets the same answer.
    const { result: loaded } = await runEditor({ sandbox }, (ctx) =>
      ctx
        .request(acp.methods.agent.session.load, {
          sessionId: SHARED,
          cwd: sandbox.workDir,
          mcpServers: [],
        })
        .then(
          () => 'loaded',
          (error: unknown) => String((error as Error).message),
        ),
    );
    expect(loaded).toContain(`Session ${SHARED} is in use by another kimi-ts process (pid ${first.pid})`);

    release();
    const firstResult = await firstDone;
    expect(firstResult.code).toBe(0);
    expect(firstResult.stdout).toContain('first answer');
    expect(server.requests).toHaveLength(1);

    // Released at exit: the next process gets the session, with the whole first turn in it.
    const third = await sandbox.run(['--print', '--session', SHARED, '-p', 'three']);
    expect(third.code).toBe(0);
    const context = await readFile(join(await sessionDir(SHARED), 'context.jsonl'), 'utf8');
    const users = context
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { role: string; content: unknown })
      .filter((m) => m.role === 'user')
      .map((m) => m.content);
    expect(users).toEqual(['one', 'three']);
    expect(await readdir(await sessionDir(SHARED))).not.toContain('session.lock');
  });

  it('takes over a lock whose owner is gone', async () => {
    const { sandbox } = await cli.setup([{ text: 'first' }, { text: 'after the crash' }]);
    expect((await sandbox.run(['--print', '--session', STALE, '-p', 'one'])).code).toBe(0);
    const pid = await deadPid();
    await writeFile(join(await sessionDir(STALE), 'session.lock'), `${JSON.stringify({ pid })}\n`);

    const result = await sandbox.run(['--print', '--session', STALE, '-p', 'two']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('after the crash');
  });
});
