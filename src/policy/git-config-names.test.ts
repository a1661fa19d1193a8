import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  configEntries,
  MAX_CONFIG_BYTES,
  MAX_INCLUDE_DEPTH,
  readGitConfigNames,
} from './git-config-names.js';

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-git-config-names-')));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** What git itself reads for `key` from `file` with its includes (the reference the parser follows). */
function gitGet(file: string, key: string): string[] {
  try {
    return execFileSync('git', ['config', '--file', file, '--includes', '--get-all', key], {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: root, GIT_CONFIG_NOSYSTEM: '1' },
    })
      .toString()
      .split('\n')
      .filter((line) => line !== '');
  } catch {
    return [];
  }
}

describe('the files and hook folders a git config names', () => {
  it('follows include.path and includeIf.*.path relative to the including file, ~/ in the home', async () => {
    await mkdir(join(root, 'repo', '.git'), { recursive: true });
    await mkdir(join(root, 'repo', 'config'));
    const config = join(root, 'repo', '.git', 'config');
    await writeFile(
      config,
      [
        '[core]',
        '\tbare = false',
        '[include]',
        '\tpath = ../.gitconfig',
        '[includeIf "onbranch:main"]',
        '\tpath = ../config/branch.inc',
        '[includeIf "gitdir:/nowhere/"]',
        '\tpath = ~/person.inc',
        '',
      ].join('\n'),
    );
    // The included file includes one more, relative to itself (repo/config/), and sets the hooks.
    await writeFile(join(root, 'repo', '.gitconfig'), '[include]\n\tpath = config/more.inc\n');
    await writeFile(join(root, 'repo', 'config', 'more.inc'), '[core]\n\thooksPath = .husky\n');
    const names = readGitConfigNames([config], root);
    expect(names.files).toEqual([
      config,
      join(root, 'repo', '.gitconfig'),
      join(root, 'repo', 'config', 'more.inc'),
      // Held whatever its condition (a branch switch makes it count), and though it does not exist.
      join(root, 'repo', 'config', 'branch.inc'),
      join(root, 'person.inc'),
    ]);
    expect(names.hooksPaths).toEqual(['.husky']);
    // git reads the same hooks path through the same includes.
    expect(gitGet(config, 'core.hooksPath')).toEqual(['.husky']);
  });

  it('reads a loop of includes once, and stops at git’s depth', async () => {
    await writeFile(join(root, 'a'), '[include]\n\tpath = b\n[core]\n\thooksPath = hooks-a\n');
    await writeFile(join(root, 'b'), '[include]\n\tpath = a\n[core]\n\thooksPath = hooks-b\n');
    const loop = readGitConfigNames([join(root, 'a')], root);
    expect(loop.files).toEqual([join(root, 'a'), join(root, 'b')]);
    expect([...loop.hooksPaths].sort()).toEqual(['hooks-a', 'hooks-b']);
    // A chain longer than git follows: every file named is listed (held), none read past the limit.
    for (let i = 0; i <= MAX_INCLUDE_DEPTH + 2; i++)
      await writeFile(join(root, `c${i}`), `[include]\n\tpath = c${i + 1}\n[core]\n\thooksPath = h${i}\n`);
    const chain = readGitConfigNames([join(root, 'c0')], root);
    expect(chain.files).toHaveLength(MAX_INCLUDE_DEPTH + 2);
    expect(chain.hooksPaths).toHaveLength(MAX_INCLUDE_DEPTH + 1);
  });

  it('skips a missing or unreadable first file, and a folder named as an include', async () => {
    await mkdir(join(root, 'dir'));
    await writeFile(join(root, 'c'), '[include]\n\tpath = dir\n');
    expect(readGitConfigNames([join(root, 'missing'), join(root, 'c')], root)).toEqual({
      files: [join(root, 'missing'), join(root, 'c'), join(root, 'dir')],
      hooksPaths: [],
    });
  });

  it('reads a huge config only so far, and quickly', async () => {
    const filler = `[user]\n\tname = ${'x'.repeat(1000)}\n`.repeat(3000);
    await writeFile(join(root, 'huge'), `[core]\n\thooksPath = early\n${filler}[core]\n\thooksPath = late\n`);
    const started = performance.now();
    const names = readGitConfigNames([join(root, 'huge')], root);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(filler.length).toBeGreaterThan(MAX_CONFIG_BYTES);
    expect(names.hooksPaths).toEqual(['early']);
  });
});

describe('git config syntax', () => {
  it('parses headers, keys, quoting, escapes, comments and continuations as git does', async () => {
    const text = [
      '# a comment',
      '[Core] HooksPath = "  .my hooks"  ; trailing comment',
      '[include]path=a\\\\b',
      '[includeIf "gitdir/i:~/Work/"]',
      '  PATH = "x#y" z  # comment',
      '[section.Sub]',
      '\tflag',
      '\tkey = one \\',
      'two',
      '[core "x"] quoted = a\\"b\\tc',
      '',
    ].join('\n');
    const file = join(root, 'syntax');
    await writeFile(file, text);
    expect(configEntries(text)).toEqual([
      { section: 'core', key: 'hookspath', value: '  .my hooks' },
      { section: 'include', key: 'path', value: 'a\\b' },
      { section: 'includeif.gitdir/i:~/Work/', key: 'path', value: 'x#y z' },
      { section: 'section.sub', key: 'flag', value: null },
      { section: 'section.sub', key: 'key', value: 'one two' },
      { section: 'core.x', key: 'quoted', value: 'a"b\tc' },
    ]);
    // git agrees on the values that matter here.
    expect(gitGet(file, 'core.hooksPath')).toEqual(['  .my hooks']);
    expect(gitGet(file, 'section.sub.key')).toEqual(['one two']);
  });
});
