import { existsSync, watch } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git } from '../support/git.js';
import { descendantsOf } from '../support/processes.js';
import { collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import type { ScriptedTurn } from '../support/scripted-llm-server.js';
import { WireClient } from '../support/wire-process-client.js';

const cli = useScriptedCli();

interface ApiMessage {
  role: string;
  content?: unknown;
}

const textOf = (m: ApiMessage | undefined): string =>
  m === undefined ? '' : typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '');

/** Resolves once a file named `name` exists anywhere below `dir` (watched, not polled). */
function fileAppearsBelow(dir: string, name: string): Promise<string> {
  return new Promise((resolve) => {
    const watcher = watch(dir, { recursive: true }, (_event, file) => {
      if (file?.endsWith(`/${name}`) && existsSync(join(dir, file))) {
        watcher.close();
        resolve(join(dir, file));
      }
    });
  });
}

describe('cancelling a swarm (built CLI, wire mode)', () => {
  it('stops every subagent, its model call and its command, and leaves no process and no worktree', async () => {
    const { sandbox, server } = await cli.setup([]);
    git(sandbox.workDir, 'init', '-q', '-b', 'main');
    await writeFile(join(sandbox.workDir, 'README.md'), 'the project\n');
    git(sandbox.workDir, 'add', '-A');
    git(
      sandbox.workDir,
      '-c',
      'user.name=P',
      '-c',
      'user.email=p@example.invalid',
      'commit',
      '-q',
      '-m',
      'first',
    );
    const statusBefore = git(sandbox.workDir, 'status', '--porcelain');

    // Item 1 runs a long command; items 2 and 3 wait on a model that never answers.
    server.answerBy((body): ScriptedTurn => {
      const messages = (body as { messages: ApiMessage[] }).messages;
      const first = textOf(messages.find((m) => m.role === 'user'));
      if (first.startsWith('Task one'))
        return {
          toolCalls: [{ id: 'long', name: 'Shell', args: { command: 'touch started-here && sleep 300' } }],
        };
      if (first.startsWith('Task')) return { stall: 'before-headers' };
      return {
        toolCalls: [
          {
            id: 'swarm-1',
            name: 'AgentSwarm',
            args: {
              description: 'Slow work',
              prompt_template: 'Task {{item}}: work on it.',
              items: ['one', 'two', 'three'],
              isolation: 'worktree',
            },
          },
        ],
      };
    });

    await mkdir(join(sandbox.home, 'worktrees'), { recursive: true });
    const started = fileAppearsBelow(join(sandbox.home, 'worktrees'), 'started-here');
    const child = sandbox.spawn(['--wire', '--yolo']);
    const client = new WireClient(child);
    await client.request('initialize', { protocol_version: '1.10' });
    const prompt = client.request('prompt', { user_input: 'Run the slow swarm.' });
    // The root's request, then the three subagents' first requests.
    await server.waitForRequests(4);
    await started;
    expect(descendantsOf(child.pid!).some((line) => line.includes('sleep 300'))).toBe(true);

    expect((await client.request('cancel')).result).toEqual({});
    expect((await prompt).result).toEqual({ status: 'cancelled' });

    // Nothing of the swarm is left: no process under the CLI, no worktree, the person's tree as it was.
    expect(descendantsOf(child.pid!)).toEqual([]);
    const worktrees = git(sandbox.workDir, 'worktree', 'list', '--porcelain')
      .split('\n')
      .filter((line) => line.startsWith('worktree '));
    expect(worktrees).toHaveLength(1);
    expect(git(sandbox.workDir, 'status', '--porcelain')).toBe(statusBefore);
    for (const session of await readdir(join(sandbox.home, 'worktrees')))
      expect(await readdir(join(sandbox.home, 'worktrees', session))).toEqual([]);
    // What the cancelled command had made is kept on its branch; the others changed nothing.
    const branches = git(
      sandbox.workDir,
      'branch',
      '--list',
      'kimi-ts/*',
      '--format=%(refname:short)',
    ).trim();
    expect(branches).toMatch(/^kimi-ts\/s[0-9a-f]{8}\/1$/);
    expect(git(sandbox.workDir, 'show', `${branches}:started-here`)).toBe('');

    child.stdin!.end();
    expect((await collect(child)).code).toBe(0);
  });

  it('a killed CLI leaves its worktrees; opening the session again commits and removes them', async () => {
    const { sandbox, server } = await cli.setup([]);
    git(sandbox.workDir, 'init', '-q', '-b', 'main');
    await writeFile(join(sandbox.workDir, 'README.md'), 'the project\n');
    git(sandbox.workDir, 'add', '-A');
    git(
      sandbox.workDir,
      '-c',
      'user.name=P',
      '-c',
      'user.email=p@example.invalid',
      'commit',
      '-q',
      '-m',
      'first',
    );
    const statusBefore = git(sandbox.workDir, 'status', '--porcelain');
    server.answerBy((body): ScriptedTurn => {
      const messages = (body as { messages: ApiMessage[] }).messages;
      const first = textOf(messages.find((m) => m.role === 'user'));
      if (first.startsWith('Task one'))
        return {
          toolCalls: [{ id: 'long', name: 'Shell', args: { command: 'touch started-here && sleep 300' } }],
        };
      if (first.startsWith('Task')) return { stall: 'before-headers' };
      if (first === 'Run the slow swarm.')
        return {
          toolCalls: [
            {
              id: 'swarm-1',
              name: 'AgentSwarm',
              args: {
                description: 'Slow',
                prompt_template: 'Task {{item}}: go.',
                items: ['one', 'two'],
                isolation: 'worktree',
              },
            },
          ],
        };
      return { text: 'Hello again.' };
    });
    await mkdir(join(sandbox.home, 'worktrees'), { recursive: true });
    const started = fileAppearsBelow(join(sandbox.home, 'worktrees'), 'started-here');
    const child = sandbox.spawn(['--wire', '--yolo']);
    const client = new WireClient(child);
    await client.request('initialize', { protocol_version: '1.10' });
    void client.request('prompt', { user_input: 'Run the slow swarm.' });
    // Both items are under way (each asked the model from its own worktree), not only the first:
    // on a loaded machine item two's worktree could still be in the making when item one started.
    await Promise.all([started, server.waitForRequests(3)]);
    const exited = collect(child);
    child.kill('SIGKILL');
    await exited;
    const listed = () =>
      git(sandbox.workDir, 'worktree', 'list', '--porcelain')
        .split('\n')
        .filter((line) => line.startsWith('worktree '));
    expect(listed()).toHaveLength(3);

    const again = await sandbox.run(['-C', '--print', '--yolo', '-p', 'hello']);
    expect(again.code).toBe(0);
    expect(listed()).toHaveLength(1);
    expect(git(sandbox.workDir, 'status', '--porcelain')).toBe(statusBefore);
    const branches = git(
      sandbox.workDir,
      'branch',
      '--list',
      'kimi-ts/*',
      '--format=%(refname:short)',
    ).trim();
    expect(branches).toMatch(/^kimi-ts\/s[0-9a-f]{8}\/1$/);
    expect(git(sandbox.workDir, 'show', `${branches}:started-here`)).toBe('');
    for (const session of await readdir(join(sandbox.home, 'worktrees')))
      expect(await readdir(join(sandbox.home, 'worktrees', session))).toEqual([]);
  });
});
