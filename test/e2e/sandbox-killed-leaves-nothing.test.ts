import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { descendantsOf, waitForProcess } from '../support/processes.js';
import { collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * A CLI killed while a sandboxed command runs (SIGKILL: no exit handler runs) leaves nothing in the
 * temp folder. It used to leave a folder with the seccomp program per process, so a machine's /tmp
 * filled with them (1,800 after a day of test runs).
 */

const cli = useScriptedCli();

it('SIGKILLed mid-command: no folder of its own left in TMPDIR; the next session reuses the program', async () => {
  const { sandbox } = await cli.setup([
    { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: 'sleep 120 # kimi-ts-killed-marker' } }] },
    { toolCalls: [{ id: 'c2', name: 'Shell', args: { command: 'echo second-ok' } }] },
    { text: 'done' },
  ]);
  const tmp = join(sandbox.root, 'tmp');
  await mkdir(tmp);
  const child = sandbox.spawn(['--print', '--yolo', '-p', 'go'], { env: { TMPDIR: tmp } });
  const finished = collect(child);
  await waitForProcess(
    () => descendantsOf(child.pid!).find((line) => line.includes('kimi-ts-killed-marker')) ?? null,
    'the sandboxed command',
  );
  child.kill('SIGKILL');
  await finished;
  expect((await readdir(tmp)).filter((name) => name.startsWith('kimi-ts-sandbox-'))).toEqual([]);
  expect(await readdir(join(sandbox.home, 'cache', 'sandbox'))).toEqual(['unix-sockets-x64.bpf']);

  // The next run (the same home) uses the program where it is, and its command runs sandboxed.
  const next = await sandbox.run(['--print', '--yolo', '--output-format', 'stream-json', '-p', 'again'], {
    env: { TMPDIR: tmp },
  });
  expect(next.stdout).toContain('second-ok');
  expect((await readdir(tmp)).filter((name) => name.startsWith('kimi-ts-sandbox-'))).toEqual([]);
});
