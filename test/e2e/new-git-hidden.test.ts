import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';
import { toolResults } from '../support/stream-json.js';

/**
 * Issue #24: the search for the git folders a sandboxed command made stopped after 20,000 folders
 * and never looked in node_modules. A command could make 25,000 folders and `git init` past them,
 * or under node_modules, and its hook stayed there for the person's next git run outside the sandbox.
 */

const cli = useScriptedCli();

const shell = (id: string, command: string) => ({ toolCalls: [{ id, name: 'Shell', args: { command } }] });

/** `git init` in `dir` and a post-checkout hook there. */
const initWithHook = (dir: string) =>
  `git init -q ${dir} && printf '#!/bin/sh\\ntouch /tmp/x\\n' > ${dir}/.git/hooks/post-checkout && chmod +x ${dir}/.git/hooks/post-checkout`;

const quarantines = (gitDir: string) =>
  readdirSync(gitDir).filter((name) => name.startsWith('kimi-ts-quarantine-'));

describe('a git folder a sandboxed command hides from the search is still cleaned (print mode, --yolo)', () => {
  it('past 25,000 folders the command made, and under node_modules: the hooks are quarantined', async () => {
    const { sandbox, server } = await cli.setup([]);
    // Breadth first, `deep/a/b` comes after the 25,000 folders of `many/`.
    const deep = 'deep/a/b';
    const inPackages = 'node_modules/pkg';
    server.push(
      shell(
        's1',
        `mkdir many && cd many && seq 1 25000 | xargs mkdir && cd .. && mkdir -p ${deep} ${inPackages} && ${initWithHook(deep)} && ${initWithHook(inPackages)} && echo planted`,
      ),
      shell('s2', 'echo after'),
      { text: 'done' },
    );
    const result = await sandbox.run(['--yolo', '--print', '--output-format', 'stream-json', '-p', 'go']);
    expect(result.code).toBe(0);
    const [first, second] = toolResults(result.stdout);
    expect(first).toContain('planted');
    expect(first).toContain('took out of the git metadata');
    expect(first).toContain(`${deep}/.git: moved to`);
    expect(first).toContain(`${inPackages}/.git: moved to`);
    expect(second).toContain('after');
    for (const dir of [deep, inPackages]) {
      const gitDir = join(sandbox.workDir, dir, '.git');
      expect(existsSync(join(gitDir, 'hooks', 'post-checkout'))).toBe(false);
      const [quarantine] = quarantines(gitDir);
      expect(quarantine).toBeDefined();
      expect(existsSync(join(gitDir, quarantine as string, 'hooks.post-checkout'))).toBe(true);
    }
  });
});
