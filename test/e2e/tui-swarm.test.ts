import { existsSync, watch } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git } from '../support/git.js';
import { descendantsOf } from '../support/processes.js';
import type { ScriptedTurn } from '../support/scripted-llm-server.js';
import { TUI_READY } from '../support/tmux-terminal.js';
import { useTuiCli } from '../support/tui-cli.js';

const cli = useTuiCli();

interface ApiMessage {
  role: string;
  content?: unknown;
}

const textOf = (m: ApiMessage | undefined): string =>
  m === undefined ? '' : typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '');

function fileAppearsBelow(dir: string, name: string): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(dir, { recursive: true }, (_event, file) => {
      if (file?.endsWith(`/${name}`) && existsSync(join(dir, file))) {
        watcher.close();
        resolve();
      }
    });
  });
}

describe('terminal UI: a swarm in worktrees', () => {
  it('Esc stops every subagent of the swarm: no process and no worktree left', async () => {
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
    server.answerBy((body): ScriptedTurn => {
      const messages = (body as { messages: ApiMessage[] }).messages;
      const first = textOf(messages.find((m) => m.role === 'user'));
      if (first.startsWith('Task one'))
        return {
          toolCalls: [{ id: 'long', name: 'Shell', args: { command: 'touch started-here && sleep 300' } }],
        };
      if (first.startsWith('Task')) return { stall: 'before-headers' };
      if (messages.some((m) => m.role === 'tool')) return { text: 'Stopped.' };
      return {
        toolCalls: [
          {
            id: 'swarm-1',
            name: 'AgentSwarm',
            args: {
              description: 'Slow',
              prompt_template: 'Task {{item}}: go.',
              items: ['one', 'two', 'three'],
              isolation: 'worktree',
            },
          },
        ],
      };
    });
    await mkdir(join(sandbox.home, 'worktrees'), { recursive: true });
    const started = fileAppearsBelow(join(sandbox.home, 'worktrees'), 'started-here');
    const tui = cli.startTui({ args: ['--yolo'] });
    await tui.waitFor(TUI_READY);
    tui.type('run the slow swarm');
    tui.press('Enter');
    await started;
    await server.waitForRequests(4);
    await tui.waitFor('AgentSwarm');
    expect(descendantsOf(tui.pid()).some((line) => line.includes('sleep 300'))).toBe(true);

    tui.press('Escape');
    await tui.waitFor('(interrupted)');
    await tui.waitForIdle();
    expect(descendantsOf(tui.pid()).filter((line) => !line.includes(' ps '))).toEqual([]);
    const worktrees = git(sandbox.workDir, 'worktree', 'list', '--porcelain')
      .split('\n')
      .filter((line) => line.startsWith('worktree '));
    expect(worktrees).toHaveLength(1);
    for (const session of await readdir(join(sandbox.home, 'worktrees')))
      expect(await readdir(join(sandbox.home, 'worktrees', session))).toEqual([]);
  });
});
