import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAlive, liveProcesses, processesWithEnv, waitForProcess } from '../support/processes.js';
import { collect } from '../support/run-cli.js';
import { TUI_READY } from '../support/tmux-terminal.js';
import { useTuiCli } from '../support/tui-cli.js';
import type { JsonRpcMessage } from '../support/wire-process-client.js';
import { startWireSession } from '../support/wire-session.js';

const cli = useTuiCli();

function rewindDone(messages: JsonRpcMessage[]): Record<string, unknown> | undefined {
  const event = messages.find(
    (m) => m.method === 'event' && (m.params as { type: string }).type === 'RewindDone',
  );
  return (event?.params as { payload: Record<string, unknown> } | undefined)?.payload;
}

/** A work tree whose first checkpoint takes a while (git adds 8,000 files). */
async function bigTree(work: string): Promise<void> {
  for (let d = 0; d < 40; d++) {
    await mkdir(join(work, `dir${d}`));
    await Promise.all(
      Array.from({ length: 200 }, (_, f) =>
        writeFile(join(work, `dir${d}`, `f${f}.txt`), `${d} ${f}\n`.repeat(8)),
      ),
    );
  }
}

/** The `git add` a CLI runs for its checkpoint, once it is running. */
const checkpointGit = (cliPid: number) =>
  waitForProcess(
    () => liveProcesses().find((p) => p.ppid === cliPid && p.command.includes(' add -A')) ?? null,
    'the checkpoint to start (git add)',
  );

/** After the CLI has gone: no git of the store left, and the session starts again and rewinds. */
async function expectCleanAndUsable(gitPid: number): Promise<void> {
  const sandbox = cli.sandbox;
  expect(isAlive(gitPid)).toBe(false);
  expect(processesWithEnv(`GIT_DIR=${join(sandbox.home, 'checkpoints')}`)).toEqual([]);
  // The next start of the same session: a turn that writes, then /rewind takes the file back.
  const server = await cli.startServer([
    { toolCalls: [{ id: 's1', name: 'Shell', args: { command: 'echo changed > dir0/f0.txt' } }] },
    { text: 'done' },
  ]);
  const again = await startWireSession(await sandbox.pointedAt({ baseUrl: server.baseUrl }), ['--continue']);
  await again.prompt('change a file');
  expect(await readFile(join(sandbox.workDir, 'dir0', 'f0.txt'), 'utf8')).toBe('changed\n');
  const done = rewindDone(await again.prompt('/rewind'));
  expect(done?.restored).toEqual(['dir0/f0.txt']);
  expect(await readFile(join(sandbox.workDir, 'dir0', 'f0.txt'), 'utf8')).toBe('0 0\n'.repeat(8));
  const end = await again.close();
  expect(end.code).toBe(0);
  expect(end.stderr).not.toContain('could not be recorded');
}

describe('the CLI ends mid-checkpoint of a big tree', () => {
  it('SIGTERM (wire mode): the checkpoint is abandoned, git is stopped before the CLI exits', {
    timeout: 120_000,
  }, async () => {
    await cli.setup([{ text: 'never needed' }]);
    await bigTree(cli.sandbox.workDir);
    const wire = await startWireSession(cli.sandbox);
    void wire.client.request('prompt', { user_input: 'hello' }).catch(() => undefined);
    const git = await checkpointGit(wire.child.pid!);
    wire.child.kill('SIGTERM');
    const result = await collect(wire.child);
    expect(result.signal).toBeNull();
    // Abandoned, not waited for: the record under way made no checkpoint.
    // The folder holds the store's folder and, once the background prune has looked, its stamp.
    const [key] = (await readdir(join(cli.sandbox.home, 'checkpoints'))).filter((name) =>
      /^[0-9a-f]{32}$/.test(name),
    );
    const storeDir = join(cli.sandbox.home, 'checkpoints', key!, 'store.git');
    expect(
      execFileSync('git', ['--git-dir', storeDir, 'for-each-ref', 'refs/kimi-ts/'], { encoding: 'utf8' }),
    ).toBe('');
    await expectCleanAndUsable(git.pid);
  });

  it('SIGHUP (the TUI whose terminal closes): nothing is left running and the next start works', {
    timeout: 120_000,
  }, async () => {
    await cli.setup([{ text: 'never needed' }]);
    await bigTree(cli.sandbox.workDir);
    const terminal = cli.startTui();
    await terminal.waitFor(TUI_READY);
    const cliPid = terminal.pid();
    terminal.type('hello');
    terminal.press('Enter');
    const git = await checkpointGit(cliPid);
    // Closing the terminal: tmux hangs up the pane (SIGHUP to the CLI).
    terminal.close();
    await waitForProcess(() => (isAlive(cliPid) ? null : true), 'the CLI to exit');
    await expectCleanAndUsable(git.pid);
  });
});
