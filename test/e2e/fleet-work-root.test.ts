import { existsSync } from 'node:fs';
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { parseQueueUrl } from '../../src/fleet/queue-address.js';
import { connectRedis } from '../../src/fleet/redis-connection.js';
import { startRedis, startWorker, submit } from '../support/fleet-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';

const cli = useScriptedCli();

const OUTSIDE = /outside the folders this worker works in \(its --work-root\)/;

it('a worker with --work-root refuses a job whose work dir is elsewhere, or a symlink leading elsewhere', async () => {
  const { server, sandbox } = await cli.setup([{ text: 'Inside the root.' }]);
  const redis = await startRedis(cli);
  // The job's writer points the session at the person's home, by name and through a link planted
  // inside the root.
  const elsewhere = join(sandbox.root, 'elsewhere');
  await mkdir(elsewhere);
  await symlink(elsewhere, join(sandbox.workDir, 'link'));
  await startWorker(cli, sandbox, redis.url, ['--work-root', sandbox.workDir]);
  for (const dir of [elsewhere, join(sandbox.workDir, 'link')]) {
    const refused = await submit(sandbox, redis.url, 'write ~/.bashrc', ['-w', dir, '--wait']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(OUTSIDE);
    // The roots are the worker's own business: the refusal does not name them.
    expect(refused.stderr).not.toContain(`${sandbox.workDir} `);
  }
  expect(server.requests).toHaveLength(0);
  // A work dir inside the root runs.
  const inside = await submit(sandbox, redis.url, 'hello', ['--wait']);
  expect(inside.code).toBe(0);
  expect(inside.stdout).toContain('Inside the root.');
});

it("a folder the session store adds (state.json's additional_dirs) outside --work-root refuses the turn", async () => {
  const { server, sandbox } = await cli.setup([{ text: 'Turn one.' }, { text: 'Never asked.' }]);
  const redis = await startRedis(cli);
  const elsewhere = join(sandbox.root, 'elsewhere');
  await mkdir(elsewhere);
  await startWorker(cli, sandbox, redis.url, ['--work-root', sandbox.workDir]);
  const first = await submit(sandbox, redis.url, 'one', ['--wait']);
  expect(first.code).toBe(0);
  const sessionId = first.stdout.split('\n')[0]!;
  // Whoever can write the store adds a folder to the session: the sandbox would make it writable.
  const client = await connectRedis(parseQueueUrl(redis.url), { graceMs: 1000 });
  try {
    const key = `kimi-ts:store:${sessionId}:state`;
    const state = JSON.parse((await client.lrange(key, 0, -1)).join('')) as Record<string, unknown>;
    const planted = JSON.stringify({ ...state, additional_dirs: [elsewhere] });
    await client.del(key);
    await client.rpush(key, planted);
    await client.hset(`kimi-ts:store:${sessionId}:sizes`, 'state', Buffer.byteLength(planted));
  } finally {
    client.disconnect();
  }
  const second = await submit(sandbox, redis.url, 'two', ['--session', sessionId, '--turn', '2', '--wait']);
  expect(second.code).not.toBe(0);
  expect(second.stderr).toMatch(
    /The folder added to the session .*elsewhere is outside the folders this worker works in/,
  );
  expect(server.requests).toHaveLength(1);
});

it('a worker without --work-root refuses a work dir that holds its home folder (its dotfiles)', async () => {
  const { server, sandbox } = await cli.setup([{ text: 'The work dir runs.' }]);
  const redis = await startRedis(cli);
  await startWorker(cli, sandbox, redis.url);
  // The sandbox's HOME is its root, the work dir's parent.
  for (const dir of [sandbox.root, '/']) {
    const refused = await submit(sandbox, redis.url, 'append to .bashrc', ['-w', dir, '--wait']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/holds the home folder of the user this worker runs as/);
  }
  expect(server.requests).toHaveLength(0);
  const inside = await submit(sandbox, redis.url, 'hello', ['--wait']);
  expect(inside.code).toBe(0);
  expect(inside.stdout).toContain('The work dir runs.');
});

it("a worker without --work-root refuses a work dir in its home's dot-folders (git's global config, its own home)", async () => {
  const { server, sandbox } = await cli.setup([
    {
      toolCalls: [
        {
          id: 's1',
          name: 'Shell',
          args: { command: "printf '[core]\\n\\tfsmonitor = touch /tmp/owned\\n' > config" },
        },
      ],
    },
    { text: 'Planted.' },
  ]);
  const redis = await startRedis(cli);
  await startWorker(cli, sandbox, redis.url);
  // The sandbox's HOME is its root: ~/.config/git/config is read by every git the person runs.
  const gitConfigDir = join(sandbox.root, '.config', 'git');
  await mkdir(gitConfigDir, { recursive: true });
  const refused = await submit(sandbox, redis.url, 'configure git', ['-w', gitConfigDir, '--yolo', '--wait']);
  expect(existsSync(join(gitConfigDir, 'config'))).toBe(false);
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toMatch(/lies in a dot-folder of the home of the user this worker runs as/);
  // The worker's own home (its other sessions, its caches) neither.
  const own = await submit(sandbox, redis.url, 'read the sessions', ['-w', sandbox.home, '--wait']);
  expect(own.code).not.toBe(0);
  expect(server.requests).toHaveLength(0);
});

it('--work-root that is no folder is a usage error at start', async () => {
  const { sandbox } = await cli.setup([]);
  const redis = await startRedis(cli);
  const result = await sandbox.run([
    'worker',
    '--queue',
    redis.url,
    '--work-root',
    join(sandbox.root, 'missing'),
  ]);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain('--work-root');
  expect(result.stderr).toContain('no such folder');
});

it("a job's work dir with terminal control sequences reaches the worker's log only as visible characters", async () => {
  const { server, sandbox } = await cli.setup([]);
  const redis = await startRedis(cli);
  const worker = await startWorker(cli, sandbox, redis.url, ['--work-root', sandbox.workDir]);
  // Whoever writes a job chooses its work dir: ESC ] 0 ; … BEL retitles the operator's terminal,
  // ESC [ 2 J clears it.
  const hostile = join(sandbox.root, 'x\u001b]0;owned\u0007\u001b[2J');
  await mkdir(hostile);
  const refused = await submit(sandbox, redis.url, 'hello', ['-w', hostile, '--wait']);
  expect(refused.code).not.toBe(0);
  worker.child.kill('SIGTERM');
  const { stderr } = await worker.result;
  expect(stderr).toContain('gave up');
  expect(stderr).not.toContain('\u001b');
  expect(stderr).not.toContain('\u0007');
  expect(server.requests).toHaveLength(0);
});
