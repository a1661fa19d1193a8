import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WireMessage } from '../../wire/message.js';
import { ScriptedSession } from './test-support/scripted-root-session.js';

let fixture: ScriptedSession | null = null;

afterEach(async () => {
  await fixture?.close();
  fixture = null;
});

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'core.hooksPath=/dev/null', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' },
  });

const BRANCH = 'kimi-ts/s1234abcd/1';

/** A repository with a swarm branch whose change carries terminal escapes, and a hostile post-merge hook. */
async function repoWithSwarmBranch(workDir: string, marker: string): Promise<void> {
  git(workDir, 'init', '-q', '-b', 'main');
  git(workDir, 'config', 'user.name', 'P');
  git(workDir, 'config', 'user.email', 'p@example.invalid');
  await writeFile(join(workDir, 'a.txt'), 'a\n');
  git(workDir, 'add', '-A');
  git(workDir, 'commit', '-q', '-m', 'first');
  git(workDir, 'checkout', '-q', '-b', BRANCH);
  await writeFile(join(workDir, 'b.txt'), 'from the item \u001b[2J\u001b]0;owned\u0007\n');
  git(workDir, 'add', '-A');
  git(workDir, 'commit', '-q', '-m', 'item');
  git(workDir, 'checkout', '-q', 'main');
  await mkdir(join(workDir, '.git', 'hooks'), { recursive: true });
  await writeFile(join(workDir, '.git', 'hooks', 'post-merge'), `#!/bin/sh\ntouch '${marker}'\n`, {
    mode: 0o755,
  });
}

const textsOf = (seen: readonly WireMessage[]): string =>
  seen
    .filter((m) => m.type === 'ContentPart')
    .map((m) => JSON.stringify(m.payload))
    .join('\n');

describe('/swarm merge', () => {
  it('shows the diff made terminal-safe and merges only once the person approves', async () => {
    fixture = await ScriptedSession.open({ scripts: [] });
    const marker = join(fixture.root, 'hook-ran');
    await repoWithSwarmBranch(fixture.workDir, marker);
    const head = git(fixture.workDir, 'rev-parse', 'HEAD');

    const refused = await fixture.runTurn(`/swarm merge ${BRANCH}`, { answer: () => 'reject' });
    expect(refused.approvals).toHaveLength(1);
    expect(refused.approvals[0]!.payload.sender).toBe('Shell');
    expect(refused.approvals[0]!.payload.description).toContain(`git merge --no-ff --no-edit ${BRANCH}`);
    const shown = textsOf(refused.seen);
    expect(shown).toContain('b.txt | 1 +');
    expect(shown).toContain('from the item ␛[2J␛]0;owned␇');
    expect(shown).not.toContain('\\u001b');
    expect(shown).toContain('was not approved');
    expect(git(fixture.workDir, 'rev-parse', 'HEAD')).toBe(head);
    expect(existsSync(join(fixture.workDir, 'b.txt'))).toBe(false);

    const approved = await fixture.runTurn(`/swarm merge ${BRANCH}`, { answer: () => 'approve' });
    expect(approved.approvals).toHaveLength(1);
    expect(textsOf(approved.seen)).toContain(`Merged ${BRANCH}`);
    expect(git(fixture.workDir, 'log', '-1', '--format=%s%n%P').split('\n')[0]).toBe(
      `Merge ${BRANCH} (kimi-ts swarm)`,
    );
    expect(existsSync(join(fixture.workDir, 'b.txt'))).toBe(true);
    expect(existsSync(marker)).toBe(false);
  });

  it.each([['main'], ['../../etc'], [`${BRANCH} --upload-pack=evil`], ['-b kimi-ts/s1/1']])(
    'refuses %j without asking or running git merge',
    async (args) => {
      fixture = await ScriptedSession.open({ scripts: [] });
      await repoWithSwarmBranch(fixture.workDir, join(fixture.root, 'hook-ran'));
      const head = git(fixture.workDir, 'rev-parse', 'HEAD');
      const turn = await fixture.runTurn(`/swarm merge ${args}`);
      expect(turn.approvals).toHaveLength(0);
      expect(textsOf(turn.seen)).toMatch(/Usage: \/swarm merge|Not a swarm branch/);
      expect(git(fixture.workDir, 'rev-parse', 'HEAD')).toBe(head);
    },
  );
});
