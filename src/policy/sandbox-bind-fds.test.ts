import { execFileSync } from 'node:child_process';
import { closeSync, readdirSync, readlinkSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BindSourceMovedError,
  bindsByDescriptor,
  MAX_BIND_SOURCES,
  openBindSources,
  openLaunchDescriptors,
  TooManyBindSourcesError,
} from './sandbox-bind-fds.js';

let root: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-bind-fds-')));
  await mkdir(join(root, 'dir', 'sub'), { recursive: true });
  await writeFile(join(root, 'dir', 'gitfile'), 'gitdir: ../x\n');
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function openCount(): number {
  return readdirSync('/proc/self/fd').length;
}

/** The error `openBindSources` throws for `sources`, with no descriptor left open either way. */
function refusal(sources: string[]): BindSourceMovedError {
  const before = openCount();
  try {
    openBindSources(sources);
  } catch (error) {
    expect(openCount()).toBe(before);
    if (error instanceof BindSourceMovedError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('bindsByDescriptor', () => {
  it.each([
    [['--bind', '/w', '/w'], ['--bind-fd', '4', '/w'], ['/w']],
    [['--ro-bind', '/w/.git', '/w/.git'], ['--ro-bind-fd', '4', '/w/.git'], ['/w/.git']],
    // Root's own: a command cannot swap them.
    [
      ['--ro-bind', '/', '/', '--ro-bind', '/dev/null', '/h/.netrc'],
      ['--ro-bind', '/', '/', '--ro-bind', '/dev/null', '/h/.netrc'],
      [],
    ],
    [
      ['--tmpfs', '/h/.ssh', '--remount-ro', '/h/.ssh'],
      ['--tmpfs', '/h/.ssh', '--remount-ro', '/h/.ssh'],
      [],
    ],
    [
      ['--bind', '/a', '/a', '--dev', '/dev', '--ro-bind', '/real/.git', '/a/.git', '--chdir', '/a'],
      ['--bind-fd', '4', '/a', '--dev', '/dev', '--ro-bind-fd', '5', '/a/.git', '--chdir', '/a'],
      ['/a', '/real/.git'],
    ],
  ])('%j → %j', (args, expected, sources) => {
    expect(bindsByDescriptor(args)).toEqual({ args: expected, bindSources: sources });
  });

  it('refuses more than MAX_BIND_SOURCES sources', () => {
    const args = Array.from({ length: MAX_BIND_SOURCES + 1 }, (_, i) => [
      '--ro-bind',
      `/s${i}`,
      `/s${i}`,
    ]).flat();
    expect(() => bindsByDescriptor(args)).toThrow(TooManyBindSourcesError);
  });
});

describe('openBindSources', () => {
  it('opens folders and files that are their own real paths, in order', () => {
    const sources = [join(root, 'dir'), join(root, 'dir', 'gitfile'), join(root, 'dir', 'sub')];
    const fds = openBindSources(sources);
    try {
      expect(fds.map((fd) => readlinkSync(`/proc/self/fd/${fd}`))).toEqual(sources);
    } finally {
      for (const fd of fds) closeSync(fd);
    }
  });

  it('refuses a symlink in place of the source (relative, to a folder)', async () => {
    await symlink('dir', join(root, 'link'));
    const error = refusal([join(root, 'dir'), join(root, 'link')]);
    expect(error.source).toBe(join(root, 'link'));
    expect(error.message).toContain('replaced by a symlink');
  });

  it('refuses a source a folder on whose path became a symlink', async () => {
    await rename(join(root, 'dir'), join(root, 'elsewhere'));
    await symlink('elsewhere', join(root, 'dir'));
    expect(refusal([join(root, 'dir', 'sub')]).message).toContain(
      'a folder on its path replaced by a symlink',
    );
  });

  it('refuses a source that is gone', () => {
    expect(refusal([join(root, 'dir'), join(root, 'missing')]).message).toContain('was removed');
  });

  it('refuses a FIFO without waiting on it', () => {
    execFileSync('mkfifo', [join(root, 'fifo')]);
    expect(refusal([join(root, 'fifo')]).message).toContain('not a file or folder');
  });

  it('opened with the seccomp file: descriptor 3 first, binds after; closed once, even if asked twice', () => {
    const before = openCount();
    const opened = openLaunchDescriptors({
      fd3File: join(root, 'dir', 'gitfile'),
      bindSources: [join(root, 'dir')],
    });
    expect(opened.stdio).toHaveLength(2);
    expect(openCount()).toBe(before + 2);
    opened.close();
    opened.close();
    expect(openCount()).toBe(before);
    expect(openLaunchDescriptors({ fd3File: null, bindSources: [] }).stdio).toEqual(['ignore']);
  });
});
