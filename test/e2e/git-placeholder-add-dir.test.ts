import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { WireClient } from '../support/wire-process-client.js';

/**
 * Issue #24, what git's config names and does not exist is held by an empty placeholder (red team
 * red4): the placeholders are made once, at the session's start. A folder the person adds later
 * (`/add-dir`, wire) whose repository includes a missing `.gitconfig` gets none, and a command
 * (--yolo) creates it with core.fsmonitor; the person's next git status there runs it.
 */

const cli = useScriptedCli();

it('a folder added mid-session has the missing include its git config names held too', async () => {
  const { sandbox } = await cli.setup([]);
  const tools = join(sandbox.root, 'tools');
  await mkdir(tools);
  execFileSync('git', ['init', '-q'], { cwd: tools });
  execFileSync('git', ['config', 'include.path', '../.gitconfig'], { cwd: tools });
  const command = `printf '[core]\\n\\tfsmonitor = touch fsmonitor-ran\\n' > ${join(tools, '.gitconfig')}; echo wrote`;
  cli.server.push({ toolCalls: [{ id: 's', name: 'Shell', args: { command } }] }, { text: 'done' });

  const child = sandbox.spawn(['--wire', '--yolo']);
  const client = new WireClient(child);
  await client.request('initialize', { protocol_version: '1.10' });
  await client.request('prompt', { user_input: `/add-dir ${tools}` });
  expect((await client.request('prompt', { user_input: 'share the settings' })).result).toEqual({
    status: 'finished',
  });
  child.stdin!.end();
  await collect(child);

  spawnSync('git', ['status'], {
    cwd: tools,
    env: { PATH: process.env.PATH, GIT_CONFIG_GLOBAL: '/dev/null' },
  });
  expect(existsSync(join(tools, 'fsmonitor-ran'))).toBe(false);
});
