import { expect, it } from 'vitest';
import { git } from '../support/git.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { toolResults } from '../support/stream-json.js';

/**
 * Issue #24 (holes5, 3): a wrapper that changes the folder its command runs in (`env -iC DIR`,
 * `env --chd DIR`, `unshare --wd=DIR`, `nsenter --wd=DIR`, `sudo -D DIR`, `systemd-run
 * --working-directory=DIR`, and `git -C` under another wrapper): the command's relative words are
 * judged from that folder, so a secret named there (`config` in .git, a token in its remote's URL)
 * is refused before it runs. Print mode (nobody approves), the sandbox off (it hides that file).
 */

const cli = useScriptedCli();

/** A GitHub token's shape in the remote's URL: the repository's config is a secret file. */
const TOKEN = `ghp_${'holes5'.repeat(6)}`;

it('a secret named relative to the folder a wrapper changes to is refused', async () => {
  const commands = [
    'env -iC .git cat config',
    'env --chd .git cat config',
    'timeout 5 env -C .git cat config',
    'unshare --wd=.git cat config',
    'nsenter --wd=.git cat config',
    'nice git -C .git diff --no-index config /dev/null',
  ];
  const { sandbox } = await cli.setup([
    ...commands.map((command, i) => ({ toolCalls: [{ id: `c${i}`, name: 'Shell', args: { command } }] })),
    { text: 'done' },
  ]);
  git(sandbox.workDir, 'init', '-q');
  git(sandbox.workDir, 'remote', 'add', 'origin', `https://x:${TOKEN}@example.invalid/r.git`);
  const result = await sandbox.run([
    '--print',
    '--sandbox',
    'off',
    '--output-format',
    'stream-json',
    '-p',
    'go',
  ]);
  expect(result.code).toBe(0);
  const results = toolResults(result.stdout);
  expect(results).toHaveLength(commands.length);
  expect(commands.filter((_, i) => results[i]!.includes(TOKEN))).toEqual([]);
});
