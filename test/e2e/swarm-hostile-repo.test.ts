import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
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

const ITEMS = ['one', 'two'];

/** The root calls AgentSwarm over two items in worktrees; each subagent writes a file and reports. */
function swarmModel(body: unknown): ScriptedTurn {
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
            description: 'Notes',
            prompt_template: 'Write the note <<{{item}}>>.',
            items: ITEMS,
            isolation: 'worktree',
          },
        },
      ],
    };
  }
  if (last?.role === 'user')
    return {
      toolCalls: [
        { id: `write-${item}`, name: 'WriteFile', args: { path: 'note.txt', content: `${item}\n` } },
      ],
    };
  return { text: `Wrote ${item}.` };
}

/**
 * A hostile repository's config turns on a filter, a diff and a merge driver only where the agent's
 * worktrees are (on `kimi-ts/**` branches, in linked worktrees): none of them may run, since git runs
 * outside any sandbox when kimi-ts makes and commits a worktree.
 */
describe('AgentSwarm in a repository with conditional includes (built CLI, wire mode)', () => {
  it('runs no program the includes name, and the items still commit', async () => {
    const { sandbox, server } = await cli.setup([]);
    const workDir = sandbox.workDir;
    const marker = join(sandbox.root, 'ran');
    const evil = join(sandbox.root, 'evil.sh');
    await writeFile(evil, `#!/bin/sh\necho "$0 $*" >> '${marker}'\ncat\n`, { mode: 0o755 });
    git(workDir, 'init', '-q', '-b', 'main');
    git(workDir, 'config', 'user.name', 'Person');
    git(workDir, 'config', 'user.email', 'person@example.invalid');
    await writeFile(join(workDir, '.gitattributes'), '* filter=evil diff=evil merge=evil\n');
    await writeFile(join(workDir, 'README.md'), 'the project\n');
    git(workDir, 'add', '-A');
    git(workDir, 'commit', '-q', '-m', 'first');
    const included = join(sandbox.root, 'outside.cfg');
    await writeFile(
      included,
      `[filter "evil"]\n\tsmudge = ${evil}\n\tclean = ${evil}\n\tprocess = ${evil}\n\trequired = true\n` +
        `[diff "evil"]\n\ttextconv = ${evil}\n\tcommand = ${evil}\n[merge "evil"]\n\tdriver = ${evil} %O %A %B\n`,
    );
    git(workDir, 'config', 'includeIf.onbranch:kimi-ts/**.path', included);
    git(workDir, 'config', 'includeIf.gitdir:**/worktrees/**.path', included);
    server.answerBy(swarmModel);

    const child = sandbox.spawn(['--wire', '--yolo']);
    const client = new WireClient(child);
    await client.request('initialize', { protocol_version: '1.10' });
    expect((await client.request('prompt', { user_input: 'Run the swarm.' })).result).toEqual({
      status: 'finished',
    });
    child.stdin!.end();
    expect((await collect(child)).code).toBe(0);

    expect(existsSync(marker) ? readFileSync(marker, 'utf8') : '').toBe('');
    const rootLast = server.requests
      .map((r) => (r.body as { messages: ApiMessage[] }).messages)
      .filter((messages) => textOf(messages.find((m) => m.role === 'user')) === 'Run the swarm.')
      .at(-1)!
      .at(-1)!;
    expect(textOf(rootLast)).toContain('<summary>completed: 2</summary>');
    expect(git(workDir, 'branch', '--list', 'kimi-ts/*').trim().split('\n')).toHaveLength(2);
  });
});
