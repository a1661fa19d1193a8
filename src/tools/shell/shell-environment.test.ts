import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commandEnvironment, findBash } from './shell-environment.js';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-find-bash-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function executable(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'bash');
  await writeFile(file, '#!/bin/sh\n');
  await chmod(file, 0o755);
  return file;
}

describe('findBash', () => {
  it('finds the first bash on PATH, and another one once the one it found is gone', async () => {
    const first = join(root, 'a');
    const second = join(root, 'b');
    await mkdir(first);
    const later = await executable(second);
    const env = { PATH: `${first}:${second}` };
    expect(findBash(env, [])).toBe(later);
    expect(findBash(env, [])).toBe(later);
    await rm(later);
    const earlier = await executable(first);
    expect(findBash(env, [])).toBe(earlier);
  });

  it('skips a bash that is not executable', async () => {
    const dir = join(root, 'c');
    const file = await executable(dir);
    await chmod(file, 0o644);
    expect(findBash({ PATH: dir }, [])).not.toBe(file);
  });
});

describe('commandEnvironment', () => {
  it("is a copy of the session's variables with git told not to prompt, SHELL the bash and PATH trusted", () => {
    const session: Record<string, string | undefined> = {
      HOME: '/home/someone',
      UNSET: undefined,
      PATH: `.:bin:/usr/bin:/bin`,
      SHELL: '/bin/zsh',
    };
    const env = commandEnvironment(session, '/usr/bin/bash', []);
    expect(env).toEqual({
      HOME: '/home/someone',
      PATH: '/usr/bin:/bin',
      SHELL: '/usr/bin/bash',
      GIT_TERMINAL_PROMPT: '0',
    });
    // An unset variable is not passed on as a name without a value.
    expect(Object.hasOwn(env, 'UNSET')).toBe(false);
    // Its own object: a command's environment never changes the session's.
    env.HOME = '/elsewhere';
    expect(session.HOME).toBe('/home/someone');
    expect(session.PATH).toBe('.:bin:/usr/bin:/bin');
  });

  it("reads process.env itself as well (the front ends' `!` commands)", () => {
    const env = commandEnvironment(process.env, '/bin/bash', []);
    expect(env.SHELL).toBe('/bin/bash');
    expect(env.GIT_TERMINAL_PROMPT).toBe('0');
    expect(Object.keys(env).length).toBeGreaterThanOrEqual(Object.keys(process.env).length);
  });
});
