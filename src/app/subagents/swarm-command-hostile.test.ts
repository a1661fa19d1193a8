import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WireMessage } from '../../wire/message.js';
import { ScriptedSession } from './test-support/scripted-root-session.js';

/**
 * `/swarm merge` runs git in the person's repository, outside any sandbox: nothing the repository's
 * config names (diff drivers, textconv, filters, merge drivers, hooks, fsmonitor) may run, whether it
 * is in `.git/config` itself or in a file it includes.
 */
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

const BRANCH = 'kimi-ts/s5eed/2';

const textsOf = (seen: readonly WireMessage[]): string =>
  seen
    .filter((m) => m.type === 'ContentPart')
    .map((m) => JSON.stringify(m.payload))
    .join('\n');

describe('/swarm merge in a repository whose config names programs', () => {
  it.each([['plain'], ['include'], ['includeIf onbranch']])('runs none of them (config %s)', async (how) => {
    fixture = await ScriptedSession.open({ scripts: [] });
    const workDir = fixture.workDir;
    const marker = join(fixture.root, 'ran');
    const evil = join(fixture.root, 'evil.sh');
    await writeFile(evil, `#!/bin/sh\necho "$0 $*" >> '${marker}'\ncat\n`, { mode: 0o755 });
    git(workDir, 'init', '-q', '-b', 'main');
    git(workDir, 'config', 'user.name', 'P');
    git(workDir, 'config', 'user.email', 'p@example.invalid');
    await writeFile(join(workDir, '.gitattributes'), '* diff=evil filter=evil merge=evil\n');
    await writeFile(join(workDir, 'a.txt'), 'a\n');
    git(workDir, 'add', '-A');
    git(workDir, 'commit', '-q', '-m', 'first');
    git(workDir, 'checkout', '-q', '-b', BRANCH);
    await writeFile(join(workDir, 'a.txt'), 'a\nfrom the item\n');
    await writeFile(join(workDir, 'b.txt'), 'b\n');
    git(workDir, 'add', '-A');
    git(workDir, 'commit', '-q', '-m', 'item');
    git(workDir, 'checkout', '-q', 'main');
    await writeFile(join(workDir, 'c.txt'), 'person\n');
    git(workDir, 'add', '-A');
    git(workDir, 'commit', '-q', '-m', 'person');
    const settings = [
      `diff.evil.textconv=${evil}`,
      `diff.evil.command=${evil}`,
      `filter.evil.clean=${evil}`,
      `filter.evil.smudge=${evil}`,
      `filter.evil.process=${evil}`,
      `merge.evil.driver=${evil} %O %A %B`,
      `core.fsmonitor=${evil}`,
      `core.pager=${evil}`,
      `core.editor=${evil}`,
    ];
    const cfg = settings
      .map((s) => s.split('='))
      .map(([k, v]) => {
        const [section, sub, key] = k!.split('.');
        return sub && key ? `[${section} "${sub}"]\n\t${key} = ${v}\n` : `[${section}]\n\t${sub} = ${v}\n`;
      });
    const outside = join(fixture.root, 'outside.cfg');
    await writeFile(outside, cfg.join(''));
    if (how === 'plain')
      for (const s of settings) git(workDir, 'config', s.split('=')[0]!, s.slice(s.indexOf('=') + 1));
    else if (how === 'include') git(workDir, 'config', 'include.path', outside);
    else git(workDir, 'config', 'includeIf.onbranch:main.path', outside);

    const approved = await fixture.runTurn(`/swarm merge ${BRANCH}`, { answer: () => 'approve' });
    expect(textsOf(approved.seen)).toContain(`Merged ${BRANCH}`);
    expect(existsSync(marker) ? execFileSync('cat', [marker], { encoding: 'utf8' }) : '').toBe('');
  });

  it('merges the commit whose diff was shown, even when the branch moves while the person reads it', async () => {
    fixture = await ScriptedSession.open({ scripts: [] });
    const workDir = fixture.workDir;
    git(workDir, 'init', '-q', '-b', 'main');
    git(workDir, 'config', 'user.name', 'P');
    git(workDir, 'config', 'user.email', 'p@example.invalid');
    await writeFile(join(workDir, 'a.txt'), 'a\n');
    git(workDir, 'add', '-A');
    git(workDir, 'commit', '-q', '-m', 'first');
    git(workDir, 'checkout', '-q', '-b', BRANCH);
    await writeFile(join(workDir, 'shown.txt'), 'what the person saw\n');
    git(workDir, 'add', '-A');
    git(workDir, 'commit', '-q', '-m', 'item');
    await writeFile(join(workDir, 'sneaked.txt'), 'what came after\n');
    git(workDir, 'add', '-A');
    git(workDir, 'commit', '-q', '-m', 'sneaked');
    const sneaked = git(workDir, 'rev-parse', 'HEAD').trim();
    git(workDir, 'reset', '-q', '--hard', 'HEAD~1');
    git(workDir, 'checkout', '-q', 'main');

    const approved = await fixture.runTurn(`/swarm merge ${BRANCH}`, {
      answer: () => {
        // A background command (or another process) moves the branch during the question.
        git(workDir, 'update-ref', `refs/heads/${BRANCH}`, sneaked);
        return 'approve';
      },
    });
    expect(approved.approvals).toHaveLength(1);
    expect(textsOf(approved.seen)).not.toContain('sneaked.txt');
    expect(existsSync(join(workDir, 'shown.txt'))).toBe(true);
    expect(existsSync(join(workDir, 'sneaked.txt'))).toBe(false);
  });
});
