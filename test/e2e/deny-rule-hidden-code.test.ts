import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formsThatDeleted as deletedBy } from '../support/deny-rule-forms.js';
import { collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { WireClient } from '../support/wire-process-client.js';
import { rejectEveryApproval } from '../support/wire-reject-approvals.js';

/**
 * Issue #24 (deny3): code the shell runs where no command is written — arithmetic on a variable
 * whose value is `a[$(cmd)]`, `${x@P}` in an assignment, programs that run their operands (setarch,
 * sg, newgrp, gdb, ssh's ProxyCommand) — must not get past a `Shell(rm -rf*)` deny rule in print
 * mode with --yolo; and `git config` writing a key that runs a program must not count as covered by
 * an allow rule `Shell(git *)`.
 */

const cli = useScriptedCli();

const formsThatDeleted = (forms: readonly string[]) => deletedBy(cli, forms);

const X = "x='a[$(rm -rf VICTIM)]'";

describe('a deny rule for rm -rf holds against code no command names', () => {
  // These got through before (the attack first): bash 5 evaluates the subscript in x's value
  // whenever x is used in arithmetic, and each form ran rm -rf past the rule.
  it('arithmetic on a variable: $((x)), ((x)), let, an index, an offset, [[ -eq ]], declare -i, an indirect name, y=$((x)) cmd', async () => {
    const forms = [
      `${X}; echo $((x))`,
      `${X}; (( x ))`,
      `${X}; let x`,
      `${X}; a=(1); echo \${a[x]}`,
      `${X}; s=abc; echo \${s:x}`,
      `${X}; [[ x -eq 1 ]]`,
      `${X}; declare -i n; n=x`,
      `${X}; echo \${!x}`,
      `${X}; y=$((x)) true`,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
      "x='$(rm -rf VICTIM)'; y=${x@P} true",
    ];
    expect(await formsThatDeleted(forms)).toEqual([]);
  });

  // These got through before (the attack first): programs the rules did not know run their operands.
  it('programs that run their operands: setarch, linux32, sg, newgrp, gdb, ssh -o ProxyCommand', async () => {
    const group = execFileSync('id', ['-gn'], { encoding: 'utf8' }).trim();
    const forms = [
      'setarch x86_64 -R rm -rf VICTIM',
      'linux32 rm -rf VICTIM',
      `sg ${group} -c 'rm -rf VICTIM'`,
      `newgrp ${group} <<< 'rm -rf VICTIM'`,
      "gdb -batch -ex 'shell rm -rf VICTIM'",
      "ssh -F /dev/null -o ProxyCommand='rm -rf VICTIM' -o BatchMode=yes host true",
    ];
    expect(await formsThatDeleted(forms)).toEqual([]);
  });
});

// These got through before (the attack first): `git config` writing core.fsmonitor (then run by the
// next `git status`), core.pager, an alias, a filter, counted as simple under `git *`.
it('an allow rule for git * does not cover git config writing a key that runs a program: asked (wire)', async () => {
  const forms = [
    "git config core.fsmonitor 'touch pwned0'",
    "git config --global core.fsmonitor 'touch pwned1'",
    "git config set core.sshCommand 'touch pwned2'",
    "git config --add alias.x '!touch pwned3'",
  ];
  const { sandbox } = await cli.setup(
    [
      {
        toolCalls: [
          { id: 'ok', name: 'Shell', args: { command: 'git config user.name tester' } },
          ...forms.map((command, i) => ({ id: `g${i}`, name: 'Shell', args: { command } })),
        ],
      },
      { toolCalls: [{ id: 'st', name: 'Shell', args: { command: 'git status' } }] },
      { text: 'done' },
    ],
    { extraToml: '[[permission.rules]]\ndecision = "allow"\npattern = "Shell(git *)"\n' },
  );
  execFileSync('bash', ['-c', 'git init -q && echo hello > a.txt'], { cwd: sandbox.workDir });
  const child = sandbox.spawn(['--wire', '--sandbox', 'off']);
  const client = new WireClient(child);
  await client.request('initialize', { protocol_version: '1.10' });
  const asked = rejectEveryApproval(client);
  expect((await client.request('prompt', { user_input: 'set up git' })).result).toEqual({
    status: 'finished',
  });
  child.stdin!.end();
  await collect(child);
  // The plain git config write ran under the rule, unasked: the rule is in force.
  const name = execFileSync('git', ['config', '--local', 'user.name'], {
    cwd: sandbox.workDir,
    encoding: 'utf8',
  });
  expect(name.trim()).toBe('tester');
  const local = execFileSync('git', ['config', '--local', '--list'], {
    cwd: sandbox.workDir,
    encoding: 'utf8',
  });
  expect(local).not.toContain('fsmonitor');
  expect(local).not.toContain('sshcommand');
  expect(local).not.toContain('alias.x');
  expect(forms.filter((_, i) => existsSync(join(sandbox.workDir, `pwned${i}`)))).toEqual([]);
  expect(asked).toHaveLength(forms.length);
});
