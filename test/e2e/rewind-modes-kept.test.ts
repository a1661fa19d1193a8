import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';
import type { JsonRpcMessage } from '../support/wire-process-client.js';
import { startWireSession } from '../support/wire-session.js';

const cli = useScriptedCli();

function rewindDone(messages: JsonRpcMessage[]): Record<string, unknown> | undefined {
  const event = messages.find(
    (m) => m.method === 'event' && (m.params as { type: string }).type === 'RewindDone',
  );
  return (event?.params as { payload: Record<string, unknown> } | undefined)?.payload;
}

const shellTurn = (command: string) => [
  { toolCalls: [{ id: 's1', name: 'Shell', args: { command } }] },
  { text: 'done' },
];

const permissions = async (path: string) => (await stat(path)).mode & 0o777;

describe('/rewind gives back modes and removes only what a checkpoint recorded (wire mode)', () => {
  it('a 0600 file comes back 0600, an executable stays executable, a chmod alone is undone', async () => {
    await cli.setup(
      shellTurn('rm private.txt run.sh && chmod 644 key.txt && chmod 755 doc.txt && echo x > other.txt'),
    );
    const work = cli.sandbox.workDir;
    await writeFile(join(work, 'private.txt'), 'private\n');
    await chmod(join(work, 'private.txt'), 0o600);
    await writeFile(join(work, 'run.sh'), '#!/bin/sh\necho hi\n');
    await chmod(join(work, 'run.sh'), 0o700);
    await writeFile(join(work, 'key.txt'), 'k\n');
    await chmod(join(work, 'key.txt'), 0o640);
    await writeFile(join(work, 'doc.txt'), 'd\n');
    await chmod(join(work, 'doc.txt'), 0o644);

    const wire = await startWireSession(cli.sandbox, []);
    await wire.prompt('change modes');
    expect(await permissions(join(work, 'key.txt'))).toBe(0o644);
    const done = rewindDone(await wire.prompt('/rewind 1'));
    expect(done).toMatchObject({ code_rewound: true });
    expect(await readFile(join(work, 'private.txt'), 'utf8')).toBe('private\n');
    expect(await permissions(join(work, 'private.txt'))).toBe(0o600);
    expect(await permissions(join(work, 'run.sh'))).toBe(0o700);
    expect(await permissions(join(work, 'key.txt'))).toBe(0o640);
    expect(await permissions(join(work, 'doc.txt'))).toBe(0o644);
    expect((await wire.close()).code).toBe(0);
  });

  it('a file turned folder: the person’s .env and 11 MB file in it stay and are listed as kept', async () => {
    await cli.setup(shellTurn('rm cfg && mkdir cfg && echo made-by-turn > cfg/generated.txt'));
    const work = cli.sandbox.workDir;
    await writeFile(join(work, 'cfg'), 'the original cfg file\n');
    await writeFile(join(work, 'keep.txt'), 'unchanged\n');

    const wire = await startWireSession(cli.sandbox, []);
    await wire.prompt('turn cfg into a folder');
    // The person works in the new folder: a secret and a big file, neither ever recorded.
    await writeFile(join(work, 'cfg', '.env'), 'TOKEN=person-secret\n');
    await mkdir(join(work, 'cfg', 'data'));
    await writeFile(join(work, 'cfg', 'data', 'big.bin'), Buffer.alloc(11 * 1024 * 1024, 7));

    const messages = await wire.prompt('/rewind 1');
    const done = rewindDone(messages);
    expect(done).toMatchObject({ code_rewound: true });
    expect(await readFile(join(work, 'cfg', '.env'), 'utf8')).toBe('TOKEN=person-secret\n');
    expect((await stat(join(work, 'cfg', 'data', 'big.bin'))).size).toBe(11 * 1024 * 1024);
    // What the turn made (recorded) went.
    await expect(stat(join(work, 'cfg', 'generated.txt'))).rejects.toThrow();
    const kept = done?.kept as { path: string; reason: string }[];
    expect(kept.map((k) => k.path)).toEqual(expect.arrayContaining(['cfg/.env', 'cfg/data/big.bin']));
    // The file `cfg` is not put back over the person's folder, and the summary says why.
    expect(kept.find((k) => k.path === 'cfg')?.reason).toContain(
      'a folder holding files no checkpoint recorded',
    );
    expect(JSON.stringify(messages)).toContain('kept cfg/.env');
    expect(await readFile(join(work, 'keep.txt'), 'utf8')).toBe('unchanged\n');
    expect((await wire.close()).code).toBe(0);
  });

  it('a file turned folder that holds only what the turn made: the file comes back', async () => {
    await cli.setup(shellTurn('rm cfg && mkdir -p cfg/sub && echo made > cfg/sub/generated.txt'));
    const work = cli.sandbox.workDir;
    await writeFile(join(work, 'cfg'), 'the original cfg file\n');
    const wire = await startWireSession(cli.sandbox, []);
    await wire.prompt('turn cfg into a folder');
    const done = rewindDone(await wire.prompt('/rewind 1'));
    expect(done).toMatchObject({ code_rewound: true, kept: [] });
    expect(await readFile(join(work, 'cfg'), 'utf8')).toBe('the original cfg file\n');
    expect((await wire.close()).code).toBe(0);
  });

  it('a nested repository: its files are not restorable, and /rewind says so instead of staying silent', async () => {
    await cli.setup(shellTurn('echo top-2 > top.txt && echo inner-2 > lib/inner.txt'));
    const work = cli.sandbox.workDir;
    await writeFile(join(work, 'top.txt'), 'top-1\n');
    await mkdir(join(work, 'lib'));
    await writeFile(join(work, 'lib', 'inner.txt'), 'inner-1\n');
    // lib is a repository of its own (a vendored checkout, a package in a monorepo of repositories).
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
        cwd: join(work, 'lib'),
        stdio: 'ignore',
      });
    git('init', '--quiet');
    git('add', '.');
    git('commit', '--quiet', '-m', 'lib');

    const wire = await startWireSession(cli.sandbox, []);
    await wire.prompt('edit both');
    expect(await readFile(join(work, 'lib', 'inner.txt'), 'utf8')).toBe('inner-2\n');
    const messages = await wire.prompt('/rewind 1');
    const done = rewindDone(messages);
    expect(done).toMatchObject({ code_rewound: true, restored: ['top.txt'] });
    expect(await readFile(join(work, 'top.txt'), 'utf8')).toBe('top-1\n');
    // Not restored, and said: the folder and why.
    expect(await readFile(join(work, 'lib', 'inner.txt'), 'utf8')).toBe('inner-2\n');
    const skipped = done?.skipped as { path: string; reason: string }[];
    expect(skipped).toEqual([expect.objectContaining({ path: 'lib/' })]);
    expect(skipped[0]?.reason).toContain('a repository of its own');
    expect(JSON.stringify(messages)).toContain('lib/: not restorable (a repository of its own');
    expect((await wire.close()).code).toBe(0);
  });
});
