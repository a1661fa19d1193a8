import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CommandSandbox, createCommandSandbox, type SandboxContext } from './sandbox.js';

/**
 * The workspace holds the person's home (kimi-ts run in `~`, or in a folder above it): the sandbox
 * makes the workspace writable, but what runs later outside any sandbox — the shell's startup files,
 * git's config, ssh's, everything under `~/.config` and `~/.local/bin` — must stay as it is, and
 * none of them may be made where it does not exist yet. Real bubblewrap, a fake home in a temp folder.
 */

let root: string;
let home: string;
let sandboxes: CommandSandbox[];

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-sandbox-home-'));
  home = join(root, 'home', 'person');
  await mkdir(join(home, '.config', 'autostart'), { recursive: true });
  await mkdir(join(home, '.local', 'bin'), { recursive: true });
  await mkdir(join(home, 'bin'));
  await mkdir(join(home, 'project'));
  await writeFile(join(home, '.bashrc'), 'original bashrc\n');
  await writeFile(join(home, '.profile'), 'original profile\n');
  await writeFile(join(home, '.gitconfig'), '[user]\n\tname = me\n');
  await writeFile(join(home, 'project', 'notes.txt'), 'notes\n');
  sandboxes = [];
});

afterEach(async () => {
  for (const sandbox of sandboxes) sandbox.dispose();
  await rm(root, { recursive: true, force: true });
});

function sandboxAt(workDir: string, additionalDirs: string[] = []): CommandSandbox {
  const context: SandboxContext = {
    workDir,
    additionalDirs: () => additionalDirs,
    userHome: home,
    kimiHome: join(root, 'agent-home'),
    path: process.env.PATH,
  };
  const state = createCommandSandbox({ mode: 'workspace-write', network: false }, context);
  if (state.kind !== 'on') throw new Error(`expected a sandbox, got ${state.kind}`);
  sandboxes.push(state.sandbox);
  return state.sandbox;
}

/** Runs `bash -c script` in the sandbox, in `cwd`; the exit code. */
async function run(sandbox: CommandSandbox, cwd: string, script: string): Promise<number> {
  const [file = '', ...args] = [...(await sandbox.prefix(cwd)), '/bin/bash', '-c', script];
  const code = await new Promise<number>((resolve) => {
    execFile(file, args, { cwd }, (error) =>
      resolve(error ? (typeof error.code === 'number' ? error.code : 1) : 0),
    );
  });
  sandbox.commandEnded();
  return code;
}

/** Each write alone (one failing must not stop the others): how many got through. */
const ATTEMPTS = [
  'echo evil >> ~/.bashrc',
  'echo evil > ~/.profile',
  'echo evil > ~/.bash_profile',
  'echo evil > ~/.zshrc',
  'echo "[core] fsmonitor = evil" >> ~/.gitconfig',
  'mkdir -p ~/.ssh && echo evil > ~/.ssh/authorized_keys',
  'echo evil > ~/.config/autostart/evil.desktop',
  'echo evil > ~/.local/bin/git',
  'echo evil > ~/bin/git',
  'mv ~/.bashrc ~/bashrc.moved',
  'rm -f ~/.profile',
];

async function attemptAll(sandbox: CommandSandbox, cwd: string): Promise<string[]> {
  const through: string[] = [];
  for (const attempt of ATTEMPTS) {
    if ((await run(sandbox, cwd, `HOME='${home}'; ${attempt}`)) === 0) through.push(attempt);
  }
  return through;
}

async function expectHomeUntouched(): Promise<void> {
  expect(await readFile(join(home, '.bashrc'), 'utf8')).toBe('original bashrc\n');
  expect(await readFile(join(home, '.profile'), 'utf8')).toBe('original profile\n');
  expect(await readFile(join(home, '.gitconfig'), 'utf8')).toBe('[user]\n\tname = me\n');
  for (const made of [
    '.bash_profile',
    '.zshrc',
    '.ssh',
    '.config/autostart/evil.desktop',
    '.local/bin/git',
    'bin/git',
    'bashrc.moved',
  ])
    expect(existsSync(join(home, made)), made).toBe(false);
}

describe("the home's dot files when the workspace holds the home (real bubblewrap)", () => {
  it('work dir = home: dot files and ~/bin read-only, missing ones not creatable; the rest stays writable', async () => {
    const sandbox = sandboxAt(home);
    expect(await attemptAll(sandbox, home)).toEqual([]);
    await expectHomeUntouched();
    // The person's other folders are still the workspace.
    expect(await run(sandbox, home, 'echo more >> project/notes.txt && echo new > project/new.txt')).toBe(0);
    expect(await readFile(join(home, 'project', 'notes.txt'), 'utf8')).toBe('notes\nmore\n');
    expect(await readFile(join(home, 'project', 'new.txt'), 'utf8')).toBe('new\n');
  });

  it('work dir = a folder above home: the same', async () => {
    const sandbox = sandboxAt(root);
    expect(await attemptAll(sandbox, root)).toEqual([]);
    await expectHomeUntouched();
    expect(
      await run(sandbox, root, 'echo new > outside-home.txt && echo more >> home/person/project/notes.txt'),
    ).toBe(0);
    expect(await readFile(join(home, 'project', 'notes.txt'), 'utf8')).toBe('notes\nmore\n');
  });

  it('an add-dir inside a dot folder of the home stays writable', async () => {
    const inside = join(home, '.local', 'share', 'work');
    await mkdir(inside, { recursive: true });
    const sandbox = sandboxAt(home, [inside]);
    expect(await run(sandbox, inside, 'echo ok > made.txt')).toBe(0);
    expect(await readFile(join(inside, 'made.txt'), 'utf8')).toBe('ok\n');
    expect(await attemptAll(sandbox, home)).toEqual([]);
    await expectHomeUntouched();
  });

  it('a work dir inside the home (a project) changes nothing: the home stays read-only as before', async () => {
    const sandbox = sandboxAt(join(home, 'project'));
    expect(await run(sandbox, join(home, 'project'), 'echo ok > made.txt')).toBe(0);
    // The fake home is under /tmp, the sandbox's private tmpfs: writes may land there, never in it.
    await attemptAll(sandbox, join(home, 'project'));
    await expectHomeUntouched();
  });
});
