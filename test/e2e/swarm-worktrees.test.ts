import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git } from '../support/git.js';
import { collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import type { ScriptedTurn } from '../support/scripted-llm-server.js';
import { WireClient } from '../support/wire-process-client.js';

const cli = useScriptedCli();

interface ApiMessage {
  role: string;
  content?: unknown;
  tool_call_id?: string;
}

const textOf = (m: ApiMessage | undefined): string =>
  m === undefined ? '' : typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '');

/** The person's repository: one commit, a staged change, an untracked file and a stash entry. */
async function personRepo(workDir: string): Promise<void> {
  git(workDir, 'init', '-q', '-b', 'main');
  git(workDir, 'config', 'user.name', 'Person');
  git(workDir, 'config', 'user.email', 'person@example.invalid');
  await writeFile(join(workDir, 'README.md'), 'the project\n');
  git(workDir, 'add', '-A');
  git(workDir, 'commit', '-q', '-m', 'first');
  await writeFile(join(workDir, 'README.md'), 'stashed edit\n');
  git(workDir, 'stash', '-q');
  await writeFile(join(workDir, 'README.md'), 'staged edit\n');
  git(workDir, 'add', 'README.md');
  await writeFile(join(workDir, 'scratch.txt'), 'untracked\n');
}

function personState(workDir: string) {
  return {
    status: git(workDir, 'status', '--porcelain'),
    stash: git(workDir, 'stash', 'list'),
    head: git(workDir, 'rev-parse', 'HEAD'),
    worktrees: git(workDir, 'worktree', 'list', '--porcelain')
      .split('\n')
      .filter((line) => line.startsWith('worktree ')),
  };
}

const ITEMS = ['alpha', 'beta', '../../gamma; touch $HOME/pwned `id`'];
const TEMPLATE = 'Write the note for <<{{item}}>> and report.';
const REPORT = `Wrote the note. ${'Everything went as planned and the note holds the item exactly. '.repeat(4)}`;

/**
 * The model: the root calls AgentSwarm once, then ends; each subagent (known by its prompt) writes
 * a note with WriteFile and a second file with Shell, then reports. The subagents' first answers are
 * held until all three asked: the swarm only gets through if they run at the same time.
 */
function swarmModel(log: string[]): (body: unknown) => ScriptedTurn {
  let release: () => void = () => undefined;
  const allStarted = new Promise<void>((resolve) => {
    release = resolve;
  });
  return (body) => {
    const messages = (body as { messages: ApiMessage[] }).messages;
    const first = textOf(messages.find((m) => m.role === 'user'));
    const last = messages.at(-1);
    const item = ITEMS.find((candidate) => first.includes(`<<${candidate}>>`));
    if (item === undefined) {
      if (last?.role === 'tool') return { text: 'The swarm is done.' };
      return {
        toolCalls: [
          {
            id: 'swarm-1',
            name: 'AgentSwarm',
            args: {
              description: 'Write notes',
              prompt_template: TEMPLATE,
              items: ITEMS,
              max_concurrency: 3,
              isolation: 'worktree',
            },
          },
        ],
      };
    }
    const n = ITEMS.indexOf(item) + 1;
    if (last?.role === 'user') {
      log.push(`start ${n}`);
      if (log.filter((entry) => entry.startsWith('start')).length === ITEMS.length) release();
      return {
        holdUntil: allStarted,
        toolCalls: [
          {
            id: `write-${n}`,
            name: 'WriteFile',
            args: { path: 'note.txt', content: `note ${n}: ${item}\n` },
          },
          { id: `shell-${n}`, name: 'Shell', args: { command: `echo shell ${n} > from-shell.txt` } },
        ],
      };
    }
    log.push(`end ${n}`);
    return { text: REPORT };
  };
}

describe('AgentSwarm in git worktrees (built CLI, wire mode)', () => {
  it('runs three items at once, each committed on its own branch, and leaves the person and the disk as they were', async () => {
    const { sandbox, server } = await cli.setup([]);
    await personRepo(sandbox.workDir);
    const before = personState(sandbox.workDir);
    const log: string[] = [];
    server.answerBy(swarmModel(log));

    const child = sandbox.spawn(['--wire', '--yolo']);
    const client = new WireClient(child);
    await client.request('initialize', { protocol_version: '1.10' });
    const done = await client.request('prompt', { user_input: 'Run the swarm.' });
    expect(done.result).toEqual({ status: 'finished' });
    // Every subagent's events reach the wire under the swarm's call, each with its own agent id.
    const agentsSeen = new Set(
      client.messages
        .filter((m) => m.method === 'event' && (m.params as { type: string }).type === 'SubagentEvent')
        .map((m) => (m.params as { payload: { parent_tool_call_id: string; agent_id: string } }).payload)
        .filter((payload) => payload.parent_tool_call_id === 'swarm-1')
        .map((payload) => payload.agent_id),
    );
    expect(agentsSeen.size).toBe(3);
    child.stdin!.end();
    expect((await collect(child)).code).toBe(0);

    // All three started before any finished: they ran at the same time.
    expect(log.slice(0, 3).sort()).toEqual(['start 1', 'start 2', 'start 3']);

    // The parent got one report, with each item's agent, outcome, branch and diff stat.
    const rootRequests = server.requests.filter((r) => {
      const messages = (r.body as { messages: ApiMessage[] }).messages;
      return textOf(messages.find((m) => m.role === 'user')) === 'Run the swarm.';
    });
    expect(rootRequests).toHaveLength(2);
    const last = (rootRequests[1]!.body as { messages: ApiMessage[] }).messages.at(-1)!;
    expect(last.tool_call_id).toBe('swarm-1');
    const report = textOf(last);
    expect(report).toContain('<summary>completed: 3</summary>');
    const branches = [...report.matchAll(/branch=\\?"(kimi-ts\/[^"\\]+)\\?"/g)].map((m) => m[1]!);
    expect(branches).toHaveLength(3);
    const swarmId = /kimi-ts\/(s[0-9a-f]{8})\/1/.exec(branches[0]!)?.[1];
    expect(swarmId).toBeDefined();
    expect(branches).toEqual([1, 2, 3].map((n) => `kimi-ts/${swarmId}/${n}`));
    expect(report.match(/agent_id=\\?"a[0-9a-f]{8}/g)).toHaveLength(3);
    expect(report.match(/2 files changed, 2 insertions/g)).toHaveLength(3);
    expect(report).toContain('Wrote the note.');

    // Each branch holds its item's work, committed by kimi-ts on top of the person's HEAD.
    for (const [i, item] of ITEMS.entries()) {
      const branch = `kimi-ts/${swarmId}/${i + 1}`;
      expect(git(sandbox.workDir, 'show', `${branch}:note.txt`)).toBe(`note ${i + 1}: ${item}\n`);
      expect(git(sandbox.workDir, 'show', `${branch}:from-shell.txt`)).toBe(`shell ${i + 1}\n`);
      expect(git(sandbox.workDir, 'log', '-1', '--format=%an|%P', branch).trim()).toBe(
        `kimi-ts|${before.head.trim()}`,
      );
    }
    expect(
      git(sandbox.workDir, 'branch', '--list', 'kimi-ts/*', '--format=%(refname:short)').trim().split('\n'),
    ).toEqual(branches);

    // The person's work tree, index, stash and worktree list are untouched; no worktree is left.
    expect(personState(sandbox.workDir)).toEqual(before);
    expect(git(sandbox.workDir, 'show', ':README.md')).toBe('staged edit\n');
    const worktreesHome = join(sandbox.home, 'worktrees');
    const sessions = await readdir(worktreesHome);
    for (const session of sessions) expect(await readdir(join(worktreesHome, session))).toEqual([]);
    // Nothing an item said ran or moved anything.
    expect(await readdir(sandbox.root)).not.toContain('pwned');
  });

  it('refuses isolation outside a git repository with a clear tool error', async () => {
    const { sandbox, server } = await cli.setup([
      {
        toolCalls: [
          {
            id: 'swarm-1',
            name: 'AgentSwarm',
            args: {
              description: 'd',
              prompt_template: 'Do {{item}}',
              items: ['a', 'b'],
              isolation: 'worktree',
            },
          },
        ],
      },
      { text: 'Understood.' },
    ]);
    const result = await sandbox.run(['--print', '--yolo', '-p', 'go']);
    expect(result.code).toBe(0);
    const last = (server.requests[1]!.body as { messages: ApiMessage[] }).messages.at(-1)!;
    expect(last.tool_call_id).toBe('swarm-1');
    expect(textOf(last)).toContain('isolation "worktree" needs a git repository');
    expect(server.requests).toHaveLength(2);
  });
});
