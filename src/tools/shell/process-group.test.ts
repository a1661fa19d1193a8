import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, readPids, removeDir, waitForFile } from '../background/test-support/task-harness.js';
import { isProcessAlive, isProcessGroupAlive, killProcessGroup } from './process-group.js';

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir('kimi-ts-pgroup-');
});
afterEach(async () => {
  await removeDir(dir);
});

/** Starts a detached bash that writes its own pid and a background child's pid to `pids`, then waits. */
function startGroup(script: string): { leader: number; pidFile: string } {
  const pidFile = join(dir, 'pids');
  const child = spawn(
    'bash',
    ['-c', `${script} sleep 300 & echo $$ $! > ${pidFile}.tmp && mv ${pidFile}.tmp ${pidFile}; wait`],
    {
      detached: true,
      stdio: 'ignore',
    },
  );
  child.unref();
  return { leader: child.pid as number, pidFile };
}

describe('killProcessGroup', () => {
  it('ends the leader and its background child with SIGTERM', async () => {
    const { leader, pidFile } = startGroup('');
    await waitForFile(pidFile);
    const pids = await readPids(pidFile);
    expect(pids).toHaveLength(2);
    expect(pids.every(isProcessAlive)).toBe(true);
    expect(isProcessGroupAlive(leader)).toBe(true);

    await killProcessGroup(leader, { graceMs: 5_000 });

    expect(pids.some(isProcessAlive)).toBe(false);
    expect(isProcessGroupAlive(leader)).toBe(false);
  });

  it('falls back to SIGKILL when the group ignores SIGTERM', async () => {
    const { leader, pidFile } = startGroup("trap '' TERM;");
    await waitForFile(pidFile);
    const pids = await readPids(pidFile);

    await killProcessGroup(leader, { graceMs: 200 });

    expect(pids.some(isProcessAlive)).toBe(false);
  });

  it('is a no-op for a group that no longer exists', async () => {
    const child = spawn('bash', ['-c', 'exit 0'], { detached: true, stdio: 'ignore' });
    await new Promise((resolve) => child.once('exit', resolve));
    await expect(killProcessGroup(child.pid as number, { graceMs: 100 })).resolves.toBeUndefined();
    expect(isProcessAlive(child.pid as number)).toBe(false);
  });
});
