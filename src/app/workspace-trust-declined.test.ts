import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configSchema } from '../config/schema.js';
import { addTrustedFolder, trustedFoldersFile } from '../config/trusted-folders.js';
import { startingTrust, WorkspaceTrust } from './workspace-trust.js';

let root: string;
let home: string;
let work: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-declined-'));
  home = join(root, 'home');
  work = join(root, 'work');
  await mkdir(work);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function open(flag?: boolean): Promise<WorkspaceTrust> {
  const start = await startingTrust({
    workDir: work,
    home,
    userHome: root,
    config: configSchema.parse({}),
    flag,
  });
  const trust = new WorkspaceTrust(
    start.folder,
    start.source,
    trustedFoldersFile(home),
    start.declined,
    start.trustedParent,
  );
  trust.setHeldBack(['1 allow rule in .kimi-ts/permissions.toml']);
  return trust;
}

describe('a "No" to workspace trust', () => {
  it('is remembered in the home: the next session is not asked, and says it was declined', async () => {
    const first = await open();
    expect(first.worthAsking).toBe(true);
    await first.decline();
    expect(first.worthAsking).toBe(false);
    const record = JSON.parse(await readFile(trustedFoldersFile(home), 'utf8'));
    expect(record.declined).toEqual([first.folder]);
    const next = await open();
    expect(next.trusted).toBe(false);
    expect(next.declined).toBe(true);
    expect(next.worthAsking).toBe(false);
  });

  it('a later "yes" takes it out; --trust-workspace still trusts a declined folder', async () => {
    await (await open()).decline();
    expect((await open(true)).trusted).toBe(true);
    const again = await open();
    await again.trust({ remember: true, source: 'person' });
    expect(again.declined).toBe(false);
    const next = await open();
    expect(next.source).toBe('record');
    expect(JSON.parse(await readFile(trustedFoldersFile(home), 'utf8')).declined).toEqual([]);
  });

  it('declining a folder the record trusted takes that trust out for the next session', async () => {
    const trusted = await open();
    await trusted.trust({ remember: true, source: 'person' });
    await trusted.decline();
    const next = await open();
    expect(next.trusted).toBe(false);
    expect(next.declined).toBe(true);
  });

  it('a folder below a trusted one is trusted for git, not for its own rules, and is asked about', async () => {
    await addTrustedFolder(trustedFoldersFile(home), root);
    const below = await open();
    expect(below.trusted).toBe(false);
    expect(below.trustedParent).toBe(root);
    expect(below.gitAllowed).toBe(true);
    expect(below.worthAsking).toBe(true);
    await below.trust({ remember: true, source: 'person' });
    const next = await open();
    expect(next.source).toBe('record');
    expect(next.trustedParent).toBeNull();
  });

  it('an untrusted folder with no trusted folder above it runs no git', async () => {
    const alone = await open();
    expect(alone.trustedParent).toBeNull();
    expect(alone.gitAllowed).toBe(false);
  });

  it('a record written before "declined" existed still reads', async () => {
    await mkdir(home, { recursive: true });
    await writeFile(trustedFoldersFile(home), JSON.stringify({ version: 1, folders: [work] }));
    expect((await open()).source).toBe('record');
  });
});
