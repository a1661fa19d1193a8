import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { neutraliseGitDir } from './git-dir-neutralise.js';

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-neutralise-')));
});
afterEach(() => rm(root, { recursive: true, force: true }));

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: root, GIT_CONFIG_NOSYSTEM: '1' },
  });

async function repository(name: string): Promise<string> {
  const dir = join(root, name);
  await mkdir(dir);
  git(dir, 'init', '-q');
  return join(dir, '.git');
}

/** Each setting as `key\nvalue` (git's `-z` listing: values with newlines stay whole). */
const listed = (gitDir: string) => git(root, 'config', '--file', join(gitDir, 'config'), '--list', '-z');
const neverGuarded = () => false;

describe('neutraliseGitDir (real git)', () => {
  it('leaves what git init made as it is', async () => {
    const gitDir = await repository('plain');
    git(join(root, 'plain'), 'remote', 'add', 'origin', 'https://example.com/r.git');
    const before = await readFile(join(gitDir, 'config'), 'utf8');
    const result = await neutraliseGitDir(gitDir, neverGuarded, process.env.PATH);
    expect(result).toEqual({ quarantine: null, settings: [], moved: [] });
    expect(await readFile(join(gitDir, 'config'), 'utf8')).toBe(before);
  });

  it('keeps the plain settings (odd names and values too), takes out the rest, never naming a subsection', async () => {
    const gitDir = await repository('r');
    const cfg = (...args: string[]) => git(root, 'config', '--file', join(gitDir, 'config'), ...args);
    cfg('remote.origin.url', 'https://example.com/r.git');
    cfg('branch.we"ird\\name.merge', 'refs/heads/x "quoted"\tand\\slash');
    cfg('user.name', 'multi\nline');
    cfg('core.fsmonitor', 'touch pwned');
    cfg('alias.st', '!touch pwned');
    cfg('include.path', '../evil.inc');
    cfg('http.https://user:tok3n@example.com/.extraheader', 'Authorization: x');
    cfg('filter.x.smudge', 'touch pwned');
    cfg('remote.origin.uploadpack', 'touch pwned');
    const plain = listed(gitDir)
      .split('\0')
      .filter((line) =>
        /^(core\.(repositoryformatversion|filemode|bare|logallrefupdates)|remote\.origin\.url|branch\.|user\.name)/.test(
          line,
        ),
      );
    const result = await neutraliseGitDir(gitDir, neverGuarded, process.env.PATH);
    expect([...result.settings].sort()).toEqual(
      [
        'alias.st',
        'core.fsmonitor',
        'filter.*.smudge',
        'http.*.extraheader',
        'include.path',
        'remote.*.uploadpack',
      ].sort(),
    );
    expect(JSON.stringify(result)).not.toContain('tok3n');
    expect(listed(gitDir).split('\0').filter(Boolean)).toEqual(plain);
    // The original is kept in the quarantine, inside the git folder.
    expect(await readFile(join(result.quarantine as string, 'config'), 'utf8')).toContain('fsmonitor');
  });

  it('moves every hook but the samples, a symlinked config or hooks folder, config.worktree and an unguarded commondir', async () => {
    const gitDir = await repository('h');
    await writeFile(join(gitDir, 'hooks', 'post-checkout'), '#!/bin/sh\ntouch pwned\n', { mode: 0o755 });
    await writeFile(join(root, 'cfg'), '[core]\n\tbare = false\n');
    await rm(join(gitDir, 'config'));
    await symlink('../../cfg', join(gitDir, 'config'));
    await writeFile(join(gitDir, 'config.worktree'), '[core]\n\tfsmonitor = touch pwned\n');
    await writeFile(join(gitDir, 'commondir'), '../../elsewhere\n');
    await mkdir(join(root, 'elsewhere'));
    const result = await neutraliseGitDir(gitDir, neverGuarded, process.env.PATH);
    expect(result.moved).toEqual(['config.worktree', 'hooks/post-checkout', 'commondir']);
    expect(readdirSync(join(gitDir, 'hooks')).every((name) => name.endsWith('.sample'))).toBe(true);
    // The link is moved as it is, never followed (it could lead to a file of the person's).
    expect(result.settings).toEqual(['(not a plain, readable config file: all of it)']);
    expect(existsSync(join(gitDir, 'config'))).toBe(false);
    expect(await readFile(join(root, 'cfg'), 'utf8')).toBe('[core]\n\tbare = false\n');
    expect(readdirSync(result.quarantine as string).sort()).toEqual(
      ['commondir', 'config', 'config.worktree', 'hooks.post-checkout'].sort(),
    );
    expect(existsSync(join(gitDir, 'commondir'))).toBe(false);

    const other = await repository('s');
    await rm(join(other, 'hooks'), { recursive: true });
    await symlink(join(root, 'elsewhere'), join(other, 'hooks'));
    await writeFile(join(other, 'commondir'), '../../elsewhere\n');
    const second = await neutraliseGitDir(other, (dir) => dir === join(root, 'elsewhere'), process.env.PATH);
    expect(second.moved).toEqual(['hooks']);
    expect(existsSync(join(other, 'commondir'))).toBe(true);
  });

  it('refuses a git folder swapped for a symlink since it was found: nothing where it leads is moved', async () => {
    const real = await repository('real');
    await writeFile(join(real, 'hooks', 'post-checkout'), '#!/bin/sh\n', { mode: 0o755 });
    await symlink(real, join(root, 'swapped'));
    await expect(neutraliseGitDir(join(root, 'swapped'), neverGuarded, process.env.PATH)).rejects.toThrow(
      /ENOTDIR/,
    );
    await mkdir(join(root, 'outer'));
    await symlink(join(root, 'real'), join(root, 'outer', 'sub'));
    await expect(
      neutraliseGitDir(join(root, 'outer', 'sub', '.git'), neverGuarded, process.env.PATH),
    ).rejects.toThrow('is not where it was found');
    expect(existsSync(join(real, 'hooks', 'post-checkout'))).toBe(true);
  });

  it('a config git cannot read is moved whole, and git still works in the repository', async () => {
    const gitDir = await repository('bad');
    await writeFile(join(gitDir, 'config'), '[core\n\tfsmonitor = touch pwned\n');
    const result = await neutraliseGitDir(gitDir, neverGuarded, process.env.PATH);
    expect(result.settings).toEqual(['(not a plain, readable config file: all of it)']);
    expect(existsSync(join(gitDir, 'config'))).toBe(false);
    expect(git(join(root, 'bad'), 'rev-parse', '--git-dir')).toBe('.git\n');
  });
});
