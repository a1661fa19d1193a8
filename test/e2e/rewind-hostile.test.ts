import { execFileSync } from 'node:child_process';
import { existsSync, watch } from 'node:fs';
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git } from '../support/git.js';
import { collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import type { JsonRpcMessage } from '../support/wire-process-client.js';
import { type ApprovalDecision, startWireSession } from '../support/wire-session.js';

const cli = useScriptedCli();

const startWire = (args: string[] = [], decide?: ApprovalDecision) =>
  startWireSession(cli.sandbox, args, decide);

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

describe('/rewind with the things around it (wire mode)', () => {
  it("leaves a git repository's HEAD, index, stash and refs as they were", async () => {
    await cli.setup(
      shellTurn("sed -i 's/one/ONE/' tracked.txt && echo new > untracked.txt && rm staged.txt"),
    );
    const work = cli.sandbox.workDir;
    git(work, 'init', '-q', '-b', 'main');
    await writeFile(join(work, 'tracked.txt'), 'one\ntwo\n');
    await writeFile(join(work, 'staged.txt'), 'staged\n');
    await writeFile(join(work, '.gitignore'), 'ignored.log\n');
    git(work, 'add', '.');
    git(work, 'commit', '-q', '-m', 'first');
    await writeFile(join(work, 'tracked.txt'), 'one\ntwo\nstashed\n');
    git(work, 'stash', '-q');
    await writeFile(join(work, 'tracked.txt'), 'one\ntwo\nuncommitted\n');
    await writeFile(join(work, 'staged.txt'), 'staged and changed\n');
    git(work, 'add', 'staged.txt');
    await writeFile(join(work, 'ignored.log'), 'ignored\n');
    const state = () => ({
      status: git(work, 'status', '--porcelain'),
      stash: git(work, 'stash', 'list'),
      head: git(work, 'rev-parse', 'HEAD'),
      refs: git(work, 'for-each-ref'),
      staged: git(work, 'diff', '--cached'),
    });
    const before = state();
    const indexBefore = await readFile(join(work, '.git', 'index'));

    const wire = await startWire();
    await wire.prompt('edit in the repository');
    expect(state().status).not.toEqual(before.status);
    const done = rewindDone(await wire.prompt('/rewind 1'));
    expect(done).toMatchObject({ code_rewound: true });
    expect(state()).toEqual(before);
    expect(await readFile(join(work, 'tracked.txt'), 'utf8')).toBe('one\ntwo\nuncommitted\n');
    expect(await readFile(join(work, 'ignored.log'), 'utf8')).toBe('ignored\n');
    expect(existsSync(join(work, 'untracked.txt'))).toBe(false);
    // The user's index file was never rewritten by the checkpoints (git status may refresh its stat cache only).
    expect(git(work, 'ls-files', '-s')).toBe(
      execFileSync('git', ['ls-files', '-s'], {
        encoding: 'utf8',
        cwd: work,
        env: { ...process.env, GIT_INDEX_FILE: join(work, '.git', 'index') },
      }),
    );
    expect(indexBefore.length).toBeGreaterThan(0);
    expect((await wire.close()).code).toBe(0);
  });

  it('keeps a file changed by someone else since, unless confirmed or --force; reports a file over the cap', async () => {
    await cli.setup(
      shellTurn("sed -i 's/a/A/' a.txt && echo b2 > b.txt && head -c 20000 /dev/zero | tr '\\0' z > big.bin"),
      { extraToml: '[checkpoints]\nmax_file_mib = 0.01\n' },
    );
    const work = cli.sandbox.workDir;
    await writeFile(join(work, 'a.txt'), 'a\n');
    await writeFile(join(work, 'b.txt'), 'b\n');
    await writeFile(join(work, 'big.bin'), Buffer.alloc(15000, 1));
    const wire = await startWire([], (p) =>
      p.action === 'rewind files changed by someone else' ? 'reject' : 'approve',
    );
    await wire.prompt('change a and b');
    expect(await readFile(join(work, 'b.txt'), 'utf8')).toBe('b2\n');
    // Someone else edits a.txt and adds a file after the turn.
    await writeFile(join(work, 'a.txt'), 'human edit\n');
    await writeFile(join(work, 'human.txt'), 'mine\n');

    const first = await wire.prompt('/rewind 1 --code');
    const done = rewindDone(first);
    expect(done?.restored).toEqual(['b.txt']);
    expect((done!.kept as { path: string }[]).map((k) => k.path).sort()).toEqual(['a.txt', 'human.txt']);
    expect((done!.skipped as { path: string }[]).map((s) => s.path)).toContain('big.bin');
    expect(wire.approvals.map((a) => a.action)).toContain('rewind files changed by someone else');
    expect(await readFile(join(work, 'a.txt'), 'utf8')).toBe('human edit\n');
    expect(await readFile(join(work, 'b.txt'), 'utf8')).toBe('b\n');
    expect(existsSync(join(work, 'human.txt'))).toBe(true);
    // The large file is neither restored nor removed.
    expect((await readFile(join(work, 'big.bin'))).length).toBe(20000);

    const forced = rewindDone(await wire.prompt('/rewind 1 --code --force'));
    expect((forced!.restored as string[]).sort()).toEqual(['a.txt']);
    expect(forced?.removed).toEqual(['human.txt']);
    expect(await readFile(join(work, 'a.txt'), 'utf8')).toBe('a\n');
    expect((await wire.close()).code).toBe(0);
  });

  it('never writes through a symlink planted in the workspace', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'kimi-ts-outside-'));
    cli.defer(() => rm(outside, { recursive: true, force: true }));
    await writeFile(join(outside, 'precious.txt'), 'outside\n');
    await cli.setup(shellTurn(`rm -r conf && ln -s ${outside} conf && ln -s /etc x`));
    const work = cli.sandbox.workDir;
    await mkdir(join(work, 'conf'));
    await writeFile(join(work, 'conf', 'settings.txt'), 'setting=1\n');
    await writeFile(join(work, 'conf', 'precious.txt'), 'inside\n');
    const wire = await startWire();
    await wire.prompt('swap conf for a link');
    expect(await readlink(join(work, 'conf'))).toBe(outside);
    rewindDone(await wire.prompt('/rewind 1'));
    expect((await lstat(join(work, 'conf'))).isDirectory()).toBe(true);
    expect(await readFile(join(work, 'conf', 'settings.txt'), 'utf8')).toBe('setting=1\n');
    expect(existsSync(join(work, 'x'))).toBe(false);
    expect(await readdir(outside)).toEqual(['precious.txt']);
    expect(await readFile(join(outside, 'precious.txt'), 'utf8')).toBe('outside\n');
    expect((await wire.close()).code).toBe(0);
  });

  it('a kill -9 during a rewind of many files leaves no torn file, and /rewind completes after without leftovers', async () => {
    const FILES = 400;
    await cli.setup(shellTurn(`for f in f*.txt; do printf 'changed %s\\n' "$f" > "$f"; done`));
    const work = cli.sandbox.workDir;
    const original = (i: number) => `original ${i}\n`.repeat(50);
    for (let i = 0; i < FILES; i++) await writeFile(join(work, `f${i}.txt`), original(i));
    // The user's own file with a name like ours: never taken for a leftover.
    await writeFile(join(work, '.kimi-ts-restore-notes'), 'mine\n');
    const wire = await startWire([], () => 'approve');
    await wire.prompt('change them all');
    // Kill the CLI as soon as the rewind creates its first temporary file in the work dir.
    const killed = new Promise<void>((resolve) => {
      const watcher = watch(work, (_event, name) => {
        if (!name?.startsWith('.kimi-ts-restore-') || name === '.kimi-ts-restore-notes') return;
        watcher.close();
        wire.child.kill('SIGKILL');
        resolve();
      });
    });
    void wire.client.request('prompt', { user_input: '/rewind 1' });
    await killed;
    await collect(wire.child).catch(() => undefined);
    let restored = 0;
    for (let i = 0; i < FILES; i++) {
      const text = await readFile(join(work, `f${i}.txt`), 'utf8');
      if (text === original(i)) restored++;
      else expect(text).toBe(`changed f${i}.txt\n`);
    }
    expect(restored).toBeLessThan(FILES);

    const again = await startWire(['--continue']);
    const done = rewindDone(await again.prompt('/rewind 1'));
    expect(done).toMatchObject({ code_rewound: true });
    // A temporary file the kill left is cleaned before the rewind records the files: it is never
    // taken for a file the session created (nor recorded in the store).
    expect((done!.removed as string[]).filter((n) => n.includes('.kimi-ts-restore-'))).toEqual([]);
    for (let i = 0; i < FILES; i++) expect(await readFile(join(work, `f${i}.txt`), 'utf8')).toBe(original(i));
    expect((await readdir(work)).filter((n) => n.startsWith('.kimi-ts-restore-'))).toEqual([
      '.kimi-ts-restore-notes',
    ]);
    expect(await readFile(join(work, '.kimi-ts-restore-notes'), 'utf8')).toBe('mine\n');
    expect((await again.close()).code).toBe(0);
  });
});
