import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { CliSandbox } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { toolResults } from '../support/stream-json.js';

/**
 * A workspace where a command can make a git folder the sandbox did not bind read-only: no `.git`
 * yet (`git init`, a nested `sub/.git`), or a `.git` symlink / gitfile leading to a folder that does
 * not exist yet. The hostile model plants hooks and code-running config there; afterwards the person
 * runs git in the work dir, outside any sandbox, and nothing planted may run — while the repository
 * the command made stays usable.
 */

const cli = useScriptedCli();
const run = promisify(execFile);

const shell = (id: string, command: string) => ({ toolCalls: [{ id, name: 'Shell', args: { command } }] });

/** git as the person runs it in their terminal: their (here: no) global config, outside any sandbox. */
async function personGit(sandbox: CliSandbox, cwd: string, args: string[]): Promise<string> {
  const { stdout } = await run('git', args, {
    cwd,
    env: {
      PATH: process.env.PATH,
      HOME: sandbox.root,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 'p',
      GIT_AUTHOR_EMAIL: 'p@p',
      GIT_COMMITTER_NAME: 'p',
      GIT_COMMITTER_EMAIL: 'p@p',
    },
  });
  return stdout;
}

/**
 * Plants in the git folder `gitDir` (a path the command's shell sees): `core.fsmonitor`, an alias, a
 * pager and a post-checkout hook, each touching a marker in `marks` (outside the workspace: absent
 * inside the sandbox, whose /tmp is private, so only a run outside can make it).
 */
function plant(gitDir: string, marks: string, tag: string): string {
  return [
    `git config --file ${gitDir}/config core.fsmonitor "touch ${marks}/${tag}-fsmonitor; false"`,
    `git config --file ${gitDir}/config alias.st "!touch ${marks}/${tag}-alias"`,
    `git config --file ${gitDir}/config include.path ../../evil.inc`,
    `printf '#!/bin/sh\\ntouch ${marks}/${tag}-hook\\n' > ${gitDir}/hooks/post-checkout`,
    `chmod +x ${gitDir}/hooks/post-checkout`,
  ].join(' && ');
}

/** What the person does next in a repository: status, the alias, a checkout (post-checkout hook). */
async function useRepository(sandbox: CliSandbox, cwd: string): Promise<void> {
  await personGit(sandbox, cwd, ['status']);
  await personGit(sandbox, cwd, ['st']).catch(() => undefined); // no such alias any more: fails
  await personGit(sandbox, cwd, ['checkout', '-q', '-b', `other-${Math.random().toString(36).slice(2)}`]);
}

describe('a git folder a sandboxed command makes runs nothing planted when the person uses git (print mode, --yolo)', () => {
  it('git init at the top and in sub/: hooks and config that run programs are taken out, the repositories stay usable', async () => {
    const { sandbox, server } = await cli.setup([]);
    const marks = join(sandbox.root, 'marks');
    await mkdir(marks);
    const commit = 'git -c user.email=a@b -c user.name=a commit -q --allow-empty -m';
    server.push(
      shell(
        's1',
        `git init -q . && ${commit} first && ${plant('.git', marks, 'top')} && git init -q sub && cd sub && ${commit} sub-first && cd .. && ${plant('sub/.git', marks, 'sub')} && echo planted`,
      ),
      // The folder made is bound read-only from now on: nothing can be planted again.
      shell(
        's2',
        `git config core.hooksPath /x; printf x > .git/hooks/pre-commit; git log --oneline; echo second`,
      ),
      { text: 'done' },
    );
    const result = await sandbox.run(['--yolo', '--print', '--output-format', 'stream-json', '-p', 'go']);
    expect(result.code).toBe(0);
    const [first, second] = toolResults(result.stdout);
    expect(first).toContain('planted');
    expect(first).toContain('took out of the git metadata');
    expect(first).toContain('core.fsmonitor');
    expect(first).toContain('hooks/post-checkout');
    expect(second).toContain('second');
    expect(second).toContain('first'); // git log in the sandbox
    expect(second).not.toContain('took out of the git metadata');
    expect(existsSync(join(sandbox.workDir, '.git', 'hooks', 'pre-commit'))).toBe(false);

    for (const cwd of [sandbox.workDir, join(sandbox.workDir, 'sub')]) await useRepository(sandbox, cwd);
    expect(readdirSync(marks)).toEqual([]);
    // Usable: the commits, refs and plain settings are there.
    expect(await personGit(sandbox, sandbox.workDir, ['log', '--format=%s'])).toContain('first');
    expect(await personGit(sandbox, join(sandbox.workDir, 'sub'), ['log', '--format=%s'])).toContain(
      'sub-first',
    );
    const config = await readFile(join(sandbox.workDir, '.git', 'config'), 'utf8');
    expect(config).toContain('repositoryformatversion');
    expect(config).not.toMatch(/fsmonitor|alias|include/);
    // What was taken out is kept inside the git folder, not in the work tree.
    const quarantine = readdirSync(join(sandbox.workDir, '.git')).filter((n) =>
      n.startsWith('kimi-ts-quarantine-'),
    );
    expect(quarantine).toHaveLength(1);
    expect(existsSync(join(sandbox.workDir, '.git', quarantine[0] as string, 'hooks.post-checkout'))).toBe(
      true,
    );
    expect(await personGit(sandbox, sandbox.workDir, ['status', '--porcelain'])).toBe('?? sub/\n');
  });

  it('a .git symlink and a gitfile leading to a folder not made yet: what a command makes there runs nothing', async () => {
    const { sandbox, server } = await cli.setup([]);
    const marks = join(sandbox.root, 'marks');
    await mkdir(marks);
    // The person's layout: `.git` a symlink to `.gitstore`, `sub/.git` a gitfile naming `../substore`.
    await symlink('.gitstore', join(sandbox.workDir, '.git'));
    await mkdir(join(sandbox.workDir, 'sub'));
    await writeFile(join(sandbox.workDir, 'sub', '.git'), 'gitdir: ../substore\n');
    // And a bare repository of theirs with a hook of their own.
    await personGit(sandbox, sandbox.workDir, ['init', '-q', '--bare', 'mine.git']);
    await writeFile(join(sandbox.workDir, 'mine.git', 'hooks', 'post-receive'), '#!/bin/sh\nexit 0\n', {
      mode: 0o755,
    });
    const makeAt = (dir: string, target: string) =>
      `git init -q ${dir}/tmp-init && mv ${dir}/tmp-init/.git ${target} && rmdir ${dir}/tmp-init`;
    server.push(
      shell(
        's1',
        `${makeAt('.', '.gitstore')} && ${plant('.gitstore', marks, 'top')} && ${makeAt('.', 'substore')} && ${plant('substore', marks, 'sub')} && git init -q --bare evil.git && ${plant('evil.git', marks, 'bare')} && echo planted`,
      ),
      // A bare repository stays writable (a project's fixtures are often bare repositories): planting
      // in it again is cleaned again.
      // The person's own hook rewritten in place (its folder's times do not move) is moved too.
      shell(
        's2',
        `${plant('evil.git', marks, 'bare2')} && printf '#!/bin/sh\\ntouch ${marks}/mine\\n' > mine.git/hooks/post-receive && echo again`,
      ),
      { text: 'done' },
    );
    const result = await sandbox.run(['--yolo', '--print', '--output-format', 'stream-json', '-p', 'go']);
    expect(result.code).toBe(0);
    const [first] = toolResults(result.stdout);
    expect(first).toContain('planted');
    expect(first).toContain('took out of the git metadata');
    await personGit(sandbox, sandbox.workDir, ['status']);
    await personGit(sandbox, join(sandbox.workDir, 'sub'), ['status']);
    await personGit(sandbox, sandbox.workDir, ['st']).catch(() => undefined);
    const [, second] = toolResults(result.stdout);
    expect(second).toContain('again');
    expect(second).toContain('evil.git: moved to');
    expect(second).toContain('mine.git: moved to');
    expect(existsSync(join(sandbox.workDir, 'mine.git', 'hooks', 'post-receive'))).toBe(false);
    // git in a bare repository uses its config: the alias would run.
    await personGit(sandbox, join(sandbox.workDir, 'evil.git'), ['st']).catch(() => undefined);
    expect(readdirSync(marks)).toEqual([]);
  });

  it('a background command: what it planted is taken out when it exits, and its own output says so', async () => {
    const { sandbox, server } = await cli.setup([]);
    const marks = join(sandbox.root, 'marks');
    await mkdir(marks);
    server.push({
      toolCalls: [
        {
          id: 'b1',
          name: 'Shell',
          args: {
            command: `git init -q sub && ${plant('sub/.git', marks, 'bg')} && echo planted`,
            run_in_background: true,
            description: 'plant',
          },
        },
      ],
    });
    let step = 0;
    server.answerBy((body) => {
      step++;
      const taskId = /bash-[0-9a-z]{8}/.exec(JSON.stringify(body))?.[0];
      if (step === 1)
        return {
          toolCalls: [{ id: 'w1', name: 'TaskOutput', args: { task_id: taskId, block: true, timeout: 60 } }],
        };
      if (step === 2) return shell('s2', 'echo after');
      return { text: 'done' };
    });
    const result = await sandbox.run(['--yolo', '--print', '--output-format', 'stream-json', '-p', 'go']);
    expect(result.code).toBe(0);
    const results = toolResults(result.stdout);
    // Said at the end of the task's own output (what TaskOutput and its notification show), once.
    expect(results[1]).toContain('planted');
    expect(results[1]).toContain('took out of the git metadata');
    expect(results[1]).toContain('sub/.git');
    expect(results[2]).toContain('after');
    expect(results[2]).not.toContain('took out of the git metadata');
    await useRepository(sandbox, join(sandbox.workDir, 'sub')).catch(() => undefined); // no commit: checkout fails
    await personGit(sandbox, join(sandbox.workDir, 'sub'), ['status']);
    expect(readdirSync(marks)).toEqual([]);
  });

  it("the person's own repositories are never touched: their hooks and config stay; a gitfile's folder in the workspace is read-only", async () => {
    const { sandbox, server } = await cli.setup([]);
    const w = sandbox.workDir;
    // The top: a gitfile naming a git folder inside the workspace; sub/: a repository with a hook and an fsmonitor.
    await personGit(sandbox, sandbox.root, [
      'init',
      '-q',
      '--separate-git-dir',
      join(w, 'store'),
      join(sandbox.root, 'tmp-w'),
    ]);
    await writeFile(join(w, '.git'), 'gitdir: store\n');
    await personGit(sandbox, w, ['config', 'core.hooksPath', '.husky']);
    await personGit(sandbox, w, ['init', '-q', 'sub']);
    await personGit(sandbox, join(w, 'sub'), ['config', 'core.fsmonitor', 'false']);
    await writeFile(join(w, 'sub', '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const topConfig = await readFile(join(w, 'store', 'config'), 'utf8');
    const subConfig = await readFile(join(w, 'sub', '.git', 'config'), 'utf8');
    server.push(
      shell(
        's1',
        `git config --file store/config core.pager 'touch x'; printf x > store/hooks/post-checkout; echo tried`,
      ),
      shell('s2', 'echo again'),
      { text: 'done' },
    );
    const result = await sandbox.run(['--yolo', '--print', '--output-format', 'stream-json', '-p', 'go']);
    expect(result.code).toBe(0);
    const [first, second] = toolResults(result.stdout);
    expect(first).toContain('tried');
    expect(first).toContain('Read-only file system');
    for (const text of [first, second]) expect(text).not.toContain('took out of the git metadata');
    expect(await readFile(join(w, 'store', 'config'), 'utf8')).toBe(topConfig);
    expect(await readFile(join(w, 'sub', '.git', 'config'), 'utf8')).toBe(subConfig);
    expect(existsSync(join(w, 'sub', '.git', 'hooks', 'pre-commit'))).toBe(true);
    expect(existsSync(join(w, 'store', 'hooks', 'post-checkout'))).toBe(false);
  });

  it('a plain git init the person asks for works in the sandbox and is left as it is', async () => {
    const { sandbox, server } = await cli.setup([]);
    await writeFile(join(sandbox.workDir, 'a.txt'), 'a\n');
    server.push(
      shell(
        's1',
        'git init -q . && git add a.txt && git -c user.email=a@b -c user.name=a commit -q -m init && echo made',
      ),
      { text: 'done' },
    );
    const result = await sandbox.run(['--yolo', '--print', '--output-format', 'stream-json', '-p', 'go']);
    expect(result.code).toBe(0);
    const [first] = toolResults(result.stdout);
    expect(first).toContain('made');
    expect(first).not.toContain('took out of the git metadata');
    expect(await personGit(sandbox, sandbox.workDir, ['log', '--format=%s'])).toBe('init\n');
    expect(readdirSync(join(sandbox.workDir, '.git')).some((n) => n.startsWith('kimi-ts-quarantine-'))).toBe(
      false,
    );
  });
});

describe('a submodule git folder kept inside a git folder a command made', () => {
  it('.git/modules/sub with a planted hook and no sub/.git left: `git submodule update` later runs nothing planted', async () => {
    const { sandbox, server } = await cli.setup([]);
    const marks = join(sandbox.root, 'marks');
    await mkdir(marks);
    const commit = 'git -c user.email=a@b -c user.name=a commit -q --allow-empty -m';
    const add = 'git -c protocol.file.allow=always submodule add -q ./upstream sub';
    server.push(
      shell(
        's1',
        // A repository with a submodule, then the submodule's working tree removed: its git folder
        // stays in .git/modules/sub, where the next `git submodule update` takes it from.
        `git init -q upstream && (cd upstream && ${commit} up) && git init -q . && ${add} && ${commit} with-sub && rm -rf sub && ${plant('.git/modules/sub', marks, 'module')} && echo planted`,
      ),
      { text: 'done' },
    );
    const result = await sandbox.run(['--yolo', '--print', '--output-format', 'stream-json', '-p', 'go']);
    expect(result.code).toBe(0);
    const [first] = toolResults(result.stdout);
    expect(first).toContain('planted');
    expect(first).toContain('modules/sub');
    await personGit(sandbox, sandbox.workDir, [
      '-c',
      'protocol.file.allow=always',
      'submodule',
      'update',
      '--init',
      '-q',
    ]);
    await useRepository(sandbox, join(sandbox.workDir, 'sub'));
    expect(readdirSync(marks)).toEqual([]);
  });
});
