import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readPictured } from './read-pictured.js';
import { recordRootInProcess } from './record-in-process.js';
import { writeStoreSkeleton } from './store-objects.js';
import { RACY_NS, statKey, statWorkTree } from './work-tree-stat.js';

let root: string;
let work: string;
let swapper: ChildProcess | undefined;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-read-pictured-'));
  work = join(root, 'work');
  await mkdir(work);
});

afterEach(async () => {
  if (swapper?.pid !== undefined && swapper.exitCode === null) {
    const exited = new Promise((resolve) => swapper?.once('exit', resolve));
    swapper.kill('SIGKILL');
    await exited;
  }
  swapper = undefined;
  await rm(root, { recursive: true, force: true });
});

/** Waits until every file under the work dir is older than the racy window (a picture trusts it then). */
async function untilSettled(): Promise<void> {
  let newest = 0n;
  for (const name of readdirSync(work, { recursive: true }) as string[]) {
    const s = lstatSync(join(work, name), { bigint: true });
    for (const t of [s.mtimeNs, s.ctimeNs]) if (t > newest) newest = t;
  }
  const settled = newest + RACY_NS + 1_000_000n;
  while (BigInt(Date.now()) * 1_000_000n <= settled) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('a hostile work tree swapping names while the first record reads it', () => {
  it('never puts a file outside the folder into the store (a folder swapped there and back around the read)', async () => {
    // The secret outside the folder, big enough that reading it takes a while.
    const secret = join(root, 'outside', 'id_ed25519');
    await mkdir(join(root, 'outside'));
    await writeFile(secret, `-----BEGIN KEY-----\n${'s'.repeat(200_000)}\n`);
    await mkdir(join(work, 'd'));
    await writeFile(join(work, 'd', 'notes.txt'), 'harmless\n');
    // The same folder, as a background command prepares it: its notes.txt points at the secret.
    await mkdir(join(root, 'evil'));
    await symlink(secret, join(root, 'evil', 'notes.txt'));
    await untilSettled();
    const picture = await statWorkTree(work);
    if (typeof picture === 'string') throw new Error(`picture ${picture}`);
    const gitDir = join(root, 'store.git');
    await writeStoreSkeleton(gitDir);
    const secretBlob = execFileSync('git', ['hash-object', secret], { encoding: 'utf8' }).trim();
    const secretObject = join(gitDir, 'objects', secretBlob.slice(0, 2), secretBlob.slice(2));

    // A real process renaming `d` away, the prepared folder in, and back, as fast as it can.
    const script = `
      const { renameSync } = require('node:fs');
      const [d, evil, aside] = process.argv.slice(1);
      process.stdout.write('go\\n');
      for (;;) {
        try { renameSync(d, aside); renameSync(evil, d); renameSync(d, evil); renameSync(aside, d); } catch {}
      }`;
    swapper = spawn(
      process.execPath,
      ['-e', script, join(work, 'd'), join(root, 'evil'), join(root, 'aside')],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    await new Promise((resolve) => swapper?.stdout?.once('data', resolve));
    let recorded = 0;
    for (let i = 0; i < 20_000 && !existsSync(secretObject); i++) {
      const result = await recordRootInProcess({
        gitDir,
        root: work,
        rootIndex: 0,
        picture,
        indexFile: join(root, 'index'),
        maxFileBytes: 1024 * 1024,
      });
      if (result) recorded++;
    }
    expect(existsSync(secretObject)).toBe(false);
    // The race ran: some records went through with the real file (else the test proves nothing).
    expect(recorded).toBeGreaterThan(0);
  }, 120_000);

  it('reads neither a FIFO nor a symlink put where the pictured file was, and never blocks', async () => {
    const file = join(work, 'notes.txt');
    await writeFile(file, 'harmless\n');
    const pictured = statKey(lstatSync(file, { bigint: true }));
    expect(readPictured(file, 'f', pictured)?.content.toString()).toBe('harmless\n');
    await rm(file);
    execFileSync('mkfifo', [file]);
    expect(readPictured(file, 'f', pictured)).toBeNull();
    await rm(file);
    await symlink('/dev/zero', file);
    expect(readPictured(file, 'f', pictured)).toBeNull();
  });

  it('reads no more than the pictured size of a file that grew', async () => {
    const file = join(work, 'log.txt');
    await writeFile(file, 'line 1\n');
    const pictured = statKey(lstatSync(file, { bigint: true }));
    await writeFile(file, 'line 1\nline 2\n', { flag: 'a' });
    expect(readPictured(file, 'f', pictured)).toBeNull();
  });
});
