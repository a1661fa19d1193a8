import { chmod, mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { expect, it } from 'vitest';
import { startRedis, startWorker, submit } from '../support/fleet-cli.js';
import { git } from '../support/git.js';
import { collect, waitForOutput } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';

const cli = useScriptedCli();

/** A bare repository in a temp dir with one commit on `main` (README), and the path of that remote. */
async function bareRemote(root: string, files: Record<string, string> = {}): Promise<string> {
  const remote = join(root, 'remote.git');
  const seed = join(root, 'seed');
  await mkdir(seed, { recursive: true });
  git(root, 'init', '-q', '--bare', '-b', 'main', remote);
  git(seed, 'init', '-q', '-b', 'main');
  await writeFile(join(seed, 'README.md'), '# the project\n');
  for (const [name, text] of Object.entries(files)) await writeFile(join(seed, name), text);
  git(seed, 'add', '-A');
  git(seed, 'commit', '-q', '-m', 'base');
  git(seed, 'push', '-q', remote, 'main');
  return remote;
}

it('a git-remote session: turn 1 on A writes a file, it comes back as the branch; turn 2 on B starts from it', async () => {
  const { server, sandbox } = await cli.setup([
    { toolCalls: [{ id: 'w1', name: 'WriteFile', args: { path: 'hello.txt', content: 'written on A\n' } }] },
    { text: 'Wrote it.' },
    { toolCalls: [{ id: 'r1', name: 'ReadFile', args: { path: 'hello.txt' } }] },
    { text: 'Read it.' },
  ]);
  const remote = await bareRemote(sandbox.root);
  const redis = await startRedis(cli);
  const homeB = join(sandbox.root, 'home-b');
  await mkdir(homeB);
  const a = await startWorker(cli, sandbox, redis.url, ['--label', 'a']);
  const first = await submit(sandbox, redis.url, 'write hello.txt', [
    '--repo',
    remote,
    '--rev',
    'main',
    '--yolo',
    '--wait',
  ]);
  expect(first.stderr).not.toContain('Error');
  expect(first.code).toBe(0);
  const sessionId = first.stdout.split('\n')[0]!;
  const branch = `kimi-ts/${sessionId}`;
  // The work is on the session's branch of the remote, on top of the base; main is untouched.
  expect(git(remote, 'show', `${branch}:hello.txt`)).toBe('written on A\n');
  expect(git(remote, 'rev-parse', `${branch}~1`)).toBe(git(remote, 'rev-parse', 'main'));
  expect(git(remote, 'ls-tree', '--name-only', 'main')).toBe('README.md\n');
  // The session moves to another machine while idle.
  a.child.kill('SIGTERM');
  await a.result;
  await startWorker(cli, sandbox, redis.url, ['--label', 'b'], { KIMI_TS_HOME: homeB });
  // Turn 2 names no remote: the session keeps the one of its turn 1.
  const second = await submit(sandbox, redis.url, 'read hello.txt', [
    '--session',
    sessionId,
    '--turn',
    '2',
    '--yolo',
    '--wait',
  ]);
  expect(second.code).toBe(0);
  expect(second.stdout).toContain('Read it.');
  // B's ReadFile found A's file: it fetched the branch first.
  expect(JSON.stringify(server.requests[3]?.body)).toContain('written on A');
  // Neither worker ran in (or wrote to) a shared folder: each has its own worktree under its home.
  expect(await readdir(join(homeB, 'worktrees', 'fleet'))).toEqual([sessionId]);
  // fleet status and the job never carry more than the remote's path.
  const status = await sandbox.run(['fleet', 'status', '--queue', redis.url, '--json']);
  expect(status.code).toBe(0);
});

it('a hostile remote (hooks, an fsmonitor, a filter in .gitattributes and its config) runs nothing on the worker', async () => {
  const { sandbox } = await cli.setup([
    { toolCalls: [{ id: 'w1', name: 'WriteFile', args: { path: 'data.txt', content: 'new\n' } }] },
    { text: 'Done.' },
  ]);
  const marker = join(sandbox.root, 'PWNED');
  const evil = join(sandbox.root, 'evil.sh');
  await writeFile(evil, `#!/bin/sh\necho "$0 $*" >> ${marker}\ncat\n`);
  await chmod(evil, 0o755);
  const remote = await bareRemote(sandbox.root, {
    '.gitattributes': '* filter=evil diff=evil merge=evil\n',
    'data.txt': 'old\n',
  });
  // The remote's own config and hooks: run by the far side of a fetch or push through the file system.
  for (const hook of [
    'pre-receive',
    'update',
    'post-receive',
    'post-update',
    'reference-transaction',
    'push-to-checkout',
  ]) {
    await writeFile(join(remote, 'hooks', hook), `#!/bin/sh\necho ${hook} >> ${marker}\n`);
    await chmod(join(remote, 'hooks', hook), 0o755);
  }
  for (const [key, value] of [
    ['filter.evil.smudge', evil],
    ['filter.evil.clean', evil],
    ['filter.evil.process', evil],
    ['core.fsmonitor', evil],
    ['uploadpack.packObjectsHook', evil],
  ] as const)
    git(remote, 'config', key, value);
  // Proof the traps are armed: a push from the test's own clone runs the remote's hooks, even with
  // its own `-c core.hooksPath=/dev/null` (the far side of a local push does not get it).
  const probe = join(sandbox.root, 'probe');
  git(sandbox.root, 'clone', '-q', remote, probe);
  git(probe, 'commit', '-q', '--allow-empty', '-m', 'probe');
  git(probe, 'push', '-q', 'origin', 'HEAD:refs/heads/probe');
  const { readFile, rm } = await import('node:fs/promises');
  expect(await readFile(marker, 'utf8')).toContain('pre-receive');
  await rm(marker);
  const redis = await startRedis(cli);
  await startWorker(cli, sandbox, redis.url);
  const result = await submit(sandbox, redis.url, 'change data.txt', ['--repo', remote, '--yolo', '--wait']);
  expect(result.code).toBe(0);
  const sessionId = result.stdout.split('\n')[0]!;
  expect(git(remote, 'show', `kimi-ts/${sessionId}:data.txt`)).toBe('new\n');
  await expect(readFile(marker, 'utf8')).rejects.toThrow(/ENOENT/);
});

it('a rev that is not an object id or a safe ref, or a URL with credentials, is refused; so is such a job put in Redis', async () => {
  const { server, sandbox } = await cli.setup([{ text: 'never' }]);
  const redis = await startRedis(cli);
  const remote = await bareRemote(sandbox.root);
  for (const rev of ['--upload-pack=touch x', 'main..other', 'a b', 'refs/heads/x.lock', '@{-1}', '../x']) {
    const refused = await submit(sandbox, redis.url, 'p', ['--repo', remote, '--rev', rev]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--rev must be a hex object id or a safe ref name');
  }
  for (const url of [
    'https://alice:hunter2-secret@example.com/x.git',
    'ext::sh -c touch% /tmp/x',
    '-oProxyCommand=x',
  ]) {
    const refused = await submit(sandbox, redis.url, 'p', ['--repo', url]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--repo:');
    expect(refused.stderr).not.toContain('hunter2');
  }
  expect(await redis.dump()).not.toContain('hunter2');
  // Straight into Redis, past submit: the worker's schema refuses it before any git runs.
  const queue = new Queue('turns', {
    connection: { host: '127.0.0.1', port: redis.port },
    prefix: 'kimi-ts',
  });
  cli.defer(() => queue.close());
  const worker = await startWorker(cli, sandbox, redis.url);
  const sessionId = '12345678-1234-4123-8123-123456789abc';
  const failed = waitForOutput(worker.child.stderr!, /gave up turn:/);
  await queue.add(
    'turn',
    {
      sessionId,
      turn: 1,
      workDir: remote,
      prompt: 'p',
      yolo: true,
      afk: false,
      repo: { url: remote, rev: '--upload-pack=touch /tmp/pwned-kimi' },
    },
    { jobId: `turn:${sessionId}:1` },
  );
  await failed;
  expect((await queue.getFailed()).map((job) => job.failedReason)).toEqual(['Not a turn job of kimi-ts.']);
  expect(server.requests).toHaveLength(0);
});

it('a repo turn parked for an approval hands back its committed work: the other machine goes on from it', async () => {
  const { sandbox } = await cli.setup(
    [
      { toolCalls: [{ id: 's1', name: 'Shell', args: { command: 'touch before-the-question.txt' } }] },
      { toolCalls: [{ id: 's2', name: 'Shell', args: { command: 'echo approved > note.txt' } }] },
      // Redone on the other machine after the answer.
      { toolCalls: [{ id: 's2', name: 'Shell', args: { command: 'echo approved > note.txt' } }] },
      { text: 'Both files are there.' },
    ],
    { extraToml: '[[permission.rules]]\ndecision = "allow"\npattern = "Shell(touch *)"\n' },
  );
  const remote = await bareRemote(sandbox.root);
  const redis = await startRedis(cli);
  const homeB = join(sandbox.root, 'home-b');
  await mkdir(homeB);
  const a = await startWorker(cli, sandbox, redis.url, ['--label', 'a']);
  const waiting = sandbox.spawn([
    'submit',
    '--queue',
    redis.url,
    '-p',
    'make the files',
    '--repo',
    remote,
    '--ask',
    '--wait',
  ]);
  const submitted = collect(waiting);
  const sessionId = (await waitForOutput(waiting.stdout!, /\n/)).trim();
  await waitForOutput(waiting.stderr!, /Waiting for an approval/);
  await waitForOutput(a.child.stderr!, /pushed turn 1/);
  expect(git(remote, 'ls-tree', '--name-only', `kimi-ts/${sessionId}`)).toContain('before-the-question.txt');
  a.child.kill('SIGTERM');
  await a.result;
  await startWorker(cli, sandbox, redis.url, ['--label', 'b'], { KIMI_TS_HOME: homeB });
  expect((await sandbox.run(['fleet', 'approve', sessionId, '--queue', redis.url, '--approve'])).code).toBe(
    0,
  );
  const result = await submitted;
  expect(result.code).toBe(0);
  expect(result.stdout).toContain('Both files are there.');
  const files = git(remote, 'ls-tree', '--name-only', `kimi-ts/${sessionId}`);
  expect(files).toContain('before-the-question.txt');
  expect(git(remote, 'show', `kimi-ts/${sessionId}:note.txt`)).toBe('approved\n');
});
