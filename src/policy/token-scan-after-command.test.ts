import { appendFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SandboxSecretFiles } from './sandbox-secret-files.js';
import { SECRET_WALK_BOUNDS } from './workspace-secret-walk.js';

// The token scan after a command stats the files of the folders whose listing changed and those the
// command named; every file is looked at again when a turn begins (sandbox-secret-files.ts).

const GHP = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';

let root: string;
let secrets: SandboxSecretFiles;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'kimi-ts-token-after-command-')));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'notes.txt'), 'deploy notes\n');
  writeFileSync(join(root, 'src', 'a.txt'), 'clean\n');
  writeFileSync(join(root, 'src', 'b.txt'), 'clean\n');
  // Ten seconds on: what was just written counts as settled (no wait for coarse file times).
  const later = Date.now() + 10_000;
  secrets = new SandboxSecretFiles(join(root, '.cache'), true, SECRET_WALK_BOUNDS, () => later);
});
afterEach(() => {
  secrets.dispose();
  rmSync(root, { recursive: true, force: true });
});

const copied = async () => [...(await secrets.binds([root])).copies.keys()].sort();

describe('the token scan after a command', () => {
  it('a token written in place into an unnamed file of an unchanged folder waits for the turn', async () => {
    expect(await copied()).toEqual([]);
    appendFileSync(join(root, 'src', 'a.txt'), `${GHP}\n`);
    secrets.commandEnded([]);
    expect(await copied()).toEqual([]);
    secrets.refresh([root]);
    expect(await copied()).toEqual([join(root, 'src', 'a.txt')]);
  });

  it('scans at once the files the command named', async () => {
    await copied();
    appendFileSync(join(root, 'notes.txt'), `${GHP}\n`);
    secrets.commandEnded([join(root, 'notes.txt')]);
    expect(await copied()).toEqual([join(root, 'notes.txt')]);
  });

  it('scans at once every file of a folder whose listing changed (a file made or renamed in)', async () => {
    await copied();
    appendFileSync(join(root, 'src', 'a.txt'), `${GHP}\n`);
    writeFileSync(join(root, 'src', 'c.txt'), `${GHP}\n`);
    secrets.commandEnded([]);
    expect(await copied()).toEqual([join(root, 'src', 'a.txt'), join(root, 'src', 'c.txt')]);
  });

  it('a file removed from a changed folder loses its copy', async () => {
    writeFileSync(join(root, 'src', 'b.txt'), `${GHP}\n`);
    secrets.refresh([root]);
    expect(await copied()).toEqual([join(root, 'src', 'b.txt')]);
    rmSync(join(root, 'src', 'b.txt'));
    secrets.commandEnded([]);
    expect(await copied()).toEqual([]);
  });
});
