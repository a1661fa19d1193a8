import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { WireClient } from '../support/wire-process-client.js';

/**
 * Issue #24, what git's config names and does not exist is held by an empty placeholder (red team
 * red4): two sessions in the same folder (wire). The first makes the placeholder `.gitconfig` the
 * repository's include names; the second starts, finds the file there and holds it as the person's;
 * the first ends and removes its placeholder (still empty). The second's held file is gone, nothing
 * binds the name any more, and its command (--yolo) creates `.gitconfig` with core.fsmonitor.
 */

const cli = useScriptedCli();

it('a placeholder removed by another session ending does not let a command create the included config', async () => {
  const command = "printf '[core]\\n\\tfsmonitor = touch fsmonitor-ran\\n' > .gitconfig; echo wrote";
  const { sandbox } = await cli.setup([
    { toolCalls: [{ id: 's', name: 'Shell', args: { command } }] },
    { text: 'done' },
  ]);
  const work = sandbox.workDir;
  execFileSync('git', ['init', '-q'], { cwd: work });
  execFileSync('git', ['config', 'include.path', '../.gitconfig'], { cwd: work });

  const first = sandbox.spawn(['--wire']);
  const firstClient = new WireClient(first);
  await firstClient.request('initialize', { protocol_version: '1.10' });
  // The first session's placeholder stands in for the missing include.
  expect(existsSync(join(work, '.gitconfig'))).toBe(true);

  const second = sandbox.spawn(['--wire', '--yolo']);
  const secondClient = new WireClient(second);
  await secondClient.request('initialize', { protocol_version: '1.10' });

  first.stdin!.end();
  await collect(first);

  expect((await secondClient.request('prompt', { user_input: 'share the settings' })).result).toEqual({
    status: 'finished',
  });
  second.stdin!.end();
  await collect(second);

  spawnSync('git', ['status'], {
    cwd: work,
    env: { PATH: process.env.PATH, GIT_CONFIG_GLOBAL: '/dev/null' },
  });
  expect(existsSync(join(work, 'fsmonitor-ran'))).toBe(false);
});

// Variant: the placeholder a folder (`core.hooksPath = .githooks`, missing): the first session's
// empty `.githooks/` goes at its end, and the second's command makes it with a pre-commit.
it('a placeholder hooks folder removed by another session ending does not let a command fill it', async () => {
  const command =
    "mkdir -p .githooks && printf '#!/bin/sh\\ntouch hook-ran\\n' > .githooks/pre-commit && chmod +x .githooks/pre-commit; echo wrote";
  const { sandbox } = await cli.setup([
    { toolCalls: [{ id: 's', name: 'Shell', args: { command } }] },
    { text: 'done' },
  ]);
  const work = sandbox.workDir;
  execFileSync('git', ['init', '-q'], { cwd: work });
  execFileSync('git', ['config', 'core.hooksPath', '.githooks'], { cwd: work });

  const first = sandbox.spawn(['--wire']);
  const firstClient = new WireClient(first);
  await firstClient.request('initialize', { protocol_version: '1.10' });
  expect(existsSync(join(work, '.githooks'))).toBe(true);
  const second = sandbox.spawn(['--wire', '--yolo']);
  const secondClient = new WireClient(second);
  await secondClient.request('initialize', { protocol_version: '1.10' });
  first.stdin!.end();
  await collect(first);

  expect((await secondClient.request('prompt', { user_input: 'add a hook' })).result).toEqual({
    status: 'finished',
  });
  second.stdin!.end();
  await collect(second);

  spawnSync(
    'git',
    ['-c', 'user.name=p', '-c', 'user.email=p@p', 'commit', '-q', '--allow-empty', '-m', 'x'],
    {
      cwd: work,
      env: { PATH: process.env.PATH, GIT_CONFIG_GLOBAL: '/dev/null' },
    },
  );
  expect(existsSync(join(work, 'hook-ran'))).toBe(false);
});

// The first session ends while the second's command runs (a bind whose file is removed outside is
// gone from the command's view): the placeholder the second holds stays until it ends too.
it('a session ending while another holds its placeholder leaves it, for the command running there', async () => {
  const command =
    "echo started > started && read go < go && printf '[core]\\n\\tfsmonitor = touch fsmonitor-ran\\n' > .gitconfig; echo wrote";
  const { sandbox } = await cli.setup([
    { toolCalls: [{ id: 's', name: 'Shell', args: { command } }] },
    { text: 'done' },
  ]);
  const work = sandbox.workDir;
  execFileSync('git', ['init', '-q'], { cwd: work });
  execFileSync('git', ['config', 'include.path', '../.gitconfig'], { cwd: work });
  // Two FIFOs: the command says it runs, and waits for the first session to have ended.
  execFileSync('mkfifo', ['started', 'go'], { cwd: work });

  const first = sandbox.spawn(['--wire']);
  const firstClient = new WireClient(first);
  await firstClient.request('initialize', { protocol_version: '1.10' });
  expect(existsSync(join(work, '.gitconfig'))).toBe(true);
  const second = sandbox.spawn(['--wire', '--yolo']);
  const secondClient = new WireClient(second);
  await secondClient.request('initialize', { protocol_version: '1.10' });

  const prompt = secondClient.request('prompt', { user_input: 'share the settings' });
  expect(await readFile(join(work, 'started'), 'utf8')).toBe('started\n');
  first.stdin!.end();
  await collect(first);
  // Kept for the second session, empty.
  expect(existsSync(join(work, '.gitconfig'))).toBe(true);
  await writeFile(join(work, 'go'), 'go\n');
  expect((await prompt).result).toEqual({ status: 'finished' });
  second.stdin!.end();
  await collect(second);

  spawnSync('git', ['status'], {
    cwd: work,
    env: { PATH: process.env.PATH, GIT_CONFIG_GLOBAL: '/dev/null' },
  });
  expect(existsSync(join(work, 'fsmonitor-ran'))).toBe(false);
  // The last session out removes it.
  expect(existsSync(join(work, '.gitconfig'))).toBe(false);
});
