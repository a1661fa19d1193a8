import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
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
}

const textOf = (m: ApiMessage | undefined): string =>
  m === undefined ? '' : typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '');

const REPORT = `Done. ${'The file was written as asked and checked afterwards. '.repeat(5)}`;

describe('/swarm merge after a swarm (built CLI, wire mode)', () => {
  it('merges the branch the person approves and leaves the one they refuse', async () => {
    const { sandbox, server } = await cli.setup([]);
    git(sandbox.workDir, 'init', '-q', '-b', 'main');
    git(sandbox.workDir, 'config', 'user.name', 'Person');
    git(sandbox.workDir, 'config', 'user.email', 'person@example.invalid');
    await writeFile(join(sandbox.workDir, 'README.md'), 'the project\n');
    git(sandbox.workDir, 'add', '-A');
    git(sandbox.workDir, 'commit', '-q', '-m', 'first');
    server.answerBy((body): ScriptedTurn => {
      const messages = (body as { messages: ApiMessage[] }).messages;
      const first = textOf(messages.find((m) => m.role === 'user'));
      const item = /^Write (\w+)\.txt/.exec(first)?.[1];
      if (item === undefined)
        return messages.some((m) => m.role === 'tool')
          ? { text: 'Both branches are ready.' }
          : {
              toolCalls: [
                {
                  id: 'swarm-1',
                  name: 'AgentSwarm',
                  args: {
                    description: 'Files',
                    prompt_template: 'Write {{item}}.txt',
                    items: ['left', 'right'],
                    isolation: 'worktree',
                  },
                },
              ],
            };
      if (messages.at(-1)?.role === 'user')
        return {
          toolCalls: [
            { id: `w-${item}`, name: 'WriteFile', args: { path: `${item}.txt`, content: `${item}\n` } },
          ],
        };
      return { text: REPORT };
    });

    const child = sandbox.spawn(['--wire', '--yolo']);
    const client = new WireClient(child);
    await client.request('initialize', { protocol_version: '1.10' });
    expect((await client.request('prompt', { user_input: 'Make two files.' })).result).toEqual({
      status: 'finished',
    });
    const branches = git(sandbox.workDir, 'branch', '--list', 'kimi-ts/*', '--format=%(refname:short)')
      .trim()
      .split('\n');
    expect(branches).toHaveLength(2);
    const [left, right] = branches as [string, string];
    const head = git(sandbox.workDir, 'rev-parse', 'HEAD');

    // Even in yolo the merge is asked (it leaves the sandbox: it writes .git); the diff comes first.
    const asked = client.answerApprovals((payload) =>
      payload.description.includes(left) ? 'approve' : 'reject',
    );
    const merged = await client.request('prompt', { user_input: `/swarm merge ${left}` });
    expect(merged.result).toEqual({ status: 'finished' });
    const refused = await client.request('prompt', { user_input: `/swarm merge ${right}` });
    expect(refused.result).toEqual({ status: 'finished' });
    expect(asked.map((a) => a.description.split('\n')[0])).toEqual([
      expect.stringContaining(`git merge --no-ff --no-edit ${left}`),
      expect.stringContaining(`git merge --no-ff --no-edit ${right}`),
    ]);
    const said = client.messages
      .filter((m) => m.method === 'event' && (m.params as { type: string }).type === 'ContentPart')
      .map((m) => JSON.stringify((m.params as { payload: unknown }).payload))
      .join('\n');
    expect(said).toContain('left.txt | 1 +');
    expect(said).toContain(`Merged ${left}`);
    expect(said).toContain(`the merge of ${right} was not approved`);
    child.stdin!.end();
    expect((await collect(child)).code).toBe(0);

    expect(await readFile(join(sandbox.workDir, 'left.txt'), 'utf8')).toBe('left\n');
    expect(existsSync(join(sandbox.workDir, 'right.txt'))).toBe(false);
    expect(git(sandbox.workDir, 'rev-parse', 'HEAD^1')).toBe(head);
    expect(git(sandbox.workDir, 'status', '--porcelain')).toBe('');
  });
});
