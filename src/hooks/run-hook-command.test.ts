import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunHookCommandOptions, runHookCommand } from './run-hook-command.js';
import { HookSandbox, isProcessGone, killQuietly, waitUntil } from './test-support/hook-sandbox.js';

let sandbox: HookSandbox;
const strayPids: number[] = [];

beforeEach(async () => {
  sandbox = await HookSandbox.create();
});

afterEach(async () => {
  for (const pid of strayPids.splice(0)) killQuietly(pid);
  await sandbox.dispose();
});

function run(command: string, overrides: Partial<RunHookCommandOptions> = {}) {
  return runHookCommand({
    command,
    event: 'PreToolUse',
    stdin: '{"tool_name":"Shell"}',
    cwd: sandbox.dir,
    timeoutMs: 30_000,
    ...overrides,
  });
}

describe('runHookCommand decisions', () => {
  it('blocks on exit 2 with the trimmed stderr as the reason', async () => {
    const result = await run(
      await sandbox.script('deny.sh', 'echo "  rm is not allowed here  " >&2\nexit 2'),
    );
    expect(result).toMatchObject({
      action: 'block',
      reason: 'rm is not allowed here',
      exitCode: 2,
      timedOut: false,
    });
  });

  it('blocks on exit 2 with a fallback reason when stderr is empty', async () => {
    const result = await run('exit 2', { event: 'UserPromptSubmit' });
    expect(result).toMatchObject({ action: 'block', reason: 'Blocked by UserPromptSubmit hook' });
  });

  it('blocks on a JSON permissionDecision "deny" with its reason', async () => {
    const answer = {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'writes outside the project',
      },
    };
    const script = await sandbox.script('json-deny.sh', `echo '${JSON.stringify(answer)}'`);
    expect(await run(script)).toMatchObject({
      action: 'block',
      reason: 'writes outside the project',
      exitCode: 0,
    });
  });

  it('blocks on a JSON decision "block" with its reason', async () => {
    const script = await sandbox.script(
      'json-block.sh',
      `echo '{"decision":"block","reason":"tests must pass first"}'`,
    );
    expect(await run(script, { event: 'Stop' })).toMatchObject({
      action: 'block',
      reason: 'tests must pass first',
    });
  });

  it('allows on exit 1 even with a reason on stderr', async () => {
    const result = await run('echo "something broke" >&2; exit 1');
    expect(result).toMatchObject({ action: 'allow', reason: '', exitCode: 1, stderr: 'something broke\n' });
  });

  it('allows on exit 0 with plain text or an "allow" JSON answer', async () => {
    expect(await run('echo all good')).toMatchObject({ action: 'allow', exitCode: 0, stdout: 'all good\n' });
    const allowJson = `echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`;
    expect(await run(allowJson)).toMatchObject({ action: 'allow' });
  });

  it('ignores a JSON deny printed by a hook that exits with another code', async () => {
    const script = `echo '{"decision":"block","reason":"x"}'; exit 3`;
    expect(await run(script)).toMatchObject({ action: 'allow', exitCode: 3 });
  });
});

describe('runHookCommand process handling', () => {
  it('hands the payload to stdin intact and runs in the work dir', async () => {
    const stdin = JSON.stringify({ tool_input: { command: 'echo \'quoted\' "double" \\ $HOME ünï' } });
    const result = await run('cat > payload.json; pwd > cwd.txt', { stdin });
    expect(result.action).toBe('allow');
    expect(await sandbox.read('payload.json')).toBe(stdin);
    expect((await sandbox.read('cwd.txt')).trim()).toBe(sandbox.dir);
  });

  it('copes with a hook that exits without reading a large payload', async () => {
    const stdin = JSON.stringify({ blob: 'x'.repeat(1024 * 1024) });
    expect(await run('exit 2', { stdin })).toMatchObject({ action: 'block', exitCode: 2 });
  });

  it('keeps only the first bytes of a flood of output and still finishes', async () => {
    const result = await run('head -c 1000000 /dev/zero | tr "\\0" a', { outputLimitBytes: 1000 });
    expect(result).toMatchObject({ action: 'allow', exitCode: 0 });
    expect(result.stdout).toBe('a'.repeat(1000));
  });

  it('kills the hook and the children it started when it times out, and allows', async () => {
    const script = await sandbox.script(
      'hang.sh',
      'sleep 300 &\necho $! > child.pid\necho $$ > shell.pid\necho "late" >&2\nwait\nexit 2',
    );
    const result = await run(script, { timeoutMs: 1000 });
    const pids = [await sandbox.readPid('shell.pid'), await sandbox.readPid('child.pid')];
    strayPids.push(...pids);
    expect(result).toMatchObject({
      action: 'allow',
      reason: '',
      timedOut: true,
      aborted: false,
      exitCode: null,
    });
    expect(result.durationMs).toBeGreaterThanOrEqual(1000);
    for (const pid of pids) await waitUntil(() => isProcessGone(pid));
  });

  it('kills the hook and its children when the signal aborts, and allows', async () => {
    const ready = sandbox.fifo('ready');
    const script = await sandbox.script(
      'wait-forever.sh',
      `sleep 300 &\necho $! > child.pid\necho $$ > shell.pid\necho up > '${ready}'\nwait\nexit 2`,
    );
    const controller = new AbortController();
    const running = run(script, { signal: controller.signal });
    // Opening the FIFO completes once the hook has written its pids and opened the other end.
    expect((await readFile(ready, 'utf8')).trim()).toBe('up');
    controller.abort();
    const result = await running;
    const pids = [await sandbox.readPid('shell.pid'), await sandbox.readPid('child.pid')];
    strayPids.push(...pids);
    expect(result).toMatchObject({ action: 'allow', aborted: true, timedOut: false });
    for (const pid of pids) await waitUntil(() => isProcessGone(pid));
  });

  it('does not start a hook when the signal is already aborted', async () => {
    const result = await run('touch ran.txt', { signal: AbortSignal.abort() });
    expect(result).toMatchObject({ action: 'allow', aborted: true });
    await expect(sandbox.read('ran.txt')).rejects.toThrow();
  });

  it('does not wait for a background job that keeps the output pipe open', async () => {
    const result = await run('sleep 300 & echo $! > bg.pid; echo "bye" >&2; exit 2');
    const pid = await sandbox.readPid('bg.pid');
    strayPids.push(pid);
    expect(result).toMatchObject({ action: 'block', reason: 'bye', timedOut: false });
    expect(await isProcessGone(pid)).toBe(false);
  });

  it('allows with an error when the command cannot be started', async () => {
    const result = await run('true', { cwd: sandbox.path('missing-dir') });
    expect(result.action).toBe('allow');
    expect(result.error).toMatch(/ENOENT/);
  });
});

describe('runHookCommand and PATH', () => {
  it("finds a hook's programs on PATH's absolute entries only, not in the work tree through `.`", async () => {
    // The work tree's own `prettier`, found through a `.` on the person's PATH, would run a stranger's
    // code at every hook.
    const marker = `${sandbox.dir}/ran`;
    await sandbox.script('prettier', `touch '${marker}'`);
    const result = await run('prettier --check x', {
      env: { ...process.env, PATH: `.:${process.env.PATH}` },
    });
    expect(result.exitCode).toBe(127);
    await expect(readFile(marker)).rejects.toThrow(/ENOENT/);
  });

  it("nor in the work tree's own node_modules/.bin, put on PATH as an absolute path (npx)", async () => {
    const marker = `${sandbox.dir}/ran`;
    await mkdir(join(sandbox.dir, 'node_modules', '.bin'), { recursive: true });
    await sandbox.script('node_modules/.bin/prettier', `touch '${marker}'`);
    const path = `${join(sandbox.dir, 'node_modules', '.bin')}:${process.env.PATH}`;
    const result = await run('prettier --check x', { env: { ...process.env, PATH: path } });
    expect(result.exitCode).toBe(127);
    await expect(readFile(marker)).rejects.toThrow(/ENOENT/);
  });
});
