import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { WireClient } from '../support/wire-process-client.js';
import { rejectEveryApproval } from '../support/wire-reject-approvals.js';

/**
 * Issue #24, "allow rules and prefix approvals cover simple parts only" (found by a red team): over
 * the wire, an allow rule `Shell(git *)` (the README's "commands starting with git") must not run a
 * command of the model's own unasked through git options that run programs.
 */

const cli = useScriptedCli();

// These got through before (the attack first): `git -c core.fsmonitor=…` (the GIT_CONFIG_* case, written as a flag), `-c alias.x='!…'`,
// `grep -O`, `archive --exec`, `ls-remote --upload-pack` and `clone -u` count as simple under `git *`.
it('an allow rule for git * does not cover git options that run a program: those are asked (wire)', async () => {
  const forms = [
    "git -c core.fsmonitor='touch pwned0' status",
    "git -c alias.x='!touch pwned1' x",
    "git grep -O'touch pwned2' hello",
    "git archive --remote=. --exec='touch pwned3' HEAD",
    "git ls-remote --upload-pack='touch pwned4' .",
    "git clone -u 'touch pwned5' . copy",
  ];
  const { sandbox } = await cli.setup(
    [
      {
        toolCalls: [
          { id: 'ok', name: 'Shell', args: { command: 'git log --output=allowed.txt' } },
          ...forms.map((command, i) => ({ id: `g${i}`, name: 'Shell', args: { command } })),
        ],
      },
      { text: 'done' },
    ],
    { extraToml: '[[permission.rules]]\ndecision = "allow"\npattern = "Shell(git *)"\n' },
  );
  execFileSync(
    'bash',
    [
      '-c',
      'git init -q && git -c user.email=a@b -c user.name=a commit -q --allow-empty -m init && echo hello > a.txt && git add a.txt',
    ],
    { cwd: sandbox.workDir },
  );
  const child = sandbox.spawn(['--wire']);
  const client = new WireClient(child);
  await client.request('initialize', { protocol_version: '1.10' });
  const asked = rejectEveryApproval(client);
  expect((await client.request('prompt', { user_input: 'look at the history' })).result).toEqual({
    status: 'finished',
  });
  child.stdin!.end();
  await collect(child);
  // The plain git command ran under the rule, unasked: the rule is in force.
  expect(existsSync(join(sandbox.workDir, 'allowed.txt'))).toBe(true);
  const ran = forms.filter((_, i) => existsSync(join(sandbox.workDir, `pwned${i}`)));
  expect(ran).toEqual([]);
  expect(asked).toHaveLength(forms.length);
});
