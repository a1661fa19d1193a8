import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  callTool,
  longReport,
  ScriptedSession,
  say,
  toolResultOf,
} from './test-support/scripted-root-session.js';

let fixture: ScriptedSession | null = null;

afterEach(async () => {
  await fixture?.close();
  fixture = null;
});

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' },
  });

async function commitAll(workDir: string): Promise<void> {
  git(workDir, 'init', '-q', '-b', 'main');
  await writeFile(join(workDir, 'a.txt'), 'a\n');
  git(workDir, 'add', '-A');
  git(workDir, '-c', 'user.name=P', '-c', 'user.email=p@example.invalid', 'commit', '-q', '-m', 'first');
}

describe('an Agent with isolation "worktree"', () => {
  it("works and commits in its worktree; the session's work dir is outside its workspace, so asked", async () => {
    // yolo: a write in the workspace asks nothing; one beyond the sandbox's roots is asked even so.
    fixture = await ScriptedSession.open({ yolo: true, scripts: [] });
    fixture.provider.push(
      callTool('root-1', 'Agent', { description: 'Edit', prompt: 'Edit a.txt.', isolation: 'worktree' }),
      // Relative: in its worktree. Into the person's work dir: beyond its roots, so asked (refused here);
      // a command that tries the same runs in a sandbox where that folder is read-only.
      callTool('sub-1', 'WriteFile', { path: 'a.txt', content: 'agent\n' }),
      callTool('sub-2', 'WriteFile', { path: join(fixture.workDir, 'evil.txt'), content: 'evil\n' }),
      callTool('sub-3', 'Shell', { command: `echo evil > ${join(fixture.workDir, 'evil-shell.txt')}` }),
      say(longReport('the edit')),
      say('Done.'),
    );
    await commitAll(fixture.workDir);
    const before = git(fixture.workDir, 'status', '--porcelain');
    const { seen, approvals } = await fixture.runTurn('go', { answer: () => 'reject' });
    const result = toolResultOf(seen, 'root-1');
    expect(result.is_error).toBe(false);
    const branch = /worktree_branch: (kimi-ts\/a[0-9a-f]{8}\/1) \(committed; not merged\)/.exec(
      result.output,
    )?.[1];
    expect(branch).toBeDefined();
    expect(result.output).toMatch(/diff_stat:\n a\.txt \| 2 \+-/);
    expect(git(fixture.workDir, 'show', `${branch}:a.txt`)).toBe('agent\n');
    // The write into the person's tree was asked (and refused); the first write asked nothing.
    expect(approvals).toHaveLength(1);
    expect(JSON.stringify(approvals[0]!.payload)).toContain('evil.txt');
    expect(existsSync(join(fixture.workDir, 'evil.txt'))).toBe(false);
    expect(existsSync(join(fixture.workDir, 'evil-shell.txt'))).toBe(false);
    expect(git(fixture.workDir, 'status', '--porcelain')).toBe(before);
    expect(git(fixture.workDir, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
  });

  it('is refused in the background, and outside a git repository, before anything starts', async () => {
    fixture = await ScriptedSession.open({
      yolo: true,
      scripts: [
        callTool('root-1', 'Agent', {
          description: 'x',
          prompt: 'p',
          isolation: 'worktree',
          run_in_background: true,
        }),
        callTool('root-2', 'Agent', { description: 'x', prompt: 'p', isolation: 'worktree' }),
        say('Understood.'),
      ],
    });
    const { seen } = await fixture.runTurn('go');
    expect(toolResultOf(seen, 'root-1').message).toContain(
      'isolation "worktree" runs in the foreground only',
    );
    expect(toolResultOf(seen, 'root-2').message).toContain('isolation "worktree" needs a git repository');
    expect(await fixture.subagentIds()).toEqual([]);
  });
});
