import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collect } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { WireClient } from '../support/wire-process-client.js';
import { rejectEveryApproval } from '../support/wire-reject-approvals.js';

/**
 * Issue 24, "decide on what will run", through the built CLI: allow rules cover only what they
 * name (an assignment in front of an allowed command is asked, over the wire), and deny rules hold
 * however the command is written (print mode, yolo).
 */

const cli = useScriptedCli();

const rules = (...specs: [string, string][]) =>
  specs
    .map(([decision, pattern]) => `[[permission.rules]]\ndecision = "${decision}"\npattern = "${pattern}"\n`)
    .join('\n');

describe('Shell rules decide on what will run', () => {
  it('a deny rule refuses rm -rf however it is written, in print mode with --yolo', async () => {
    const forms = [
      'rm -fr victim',
      'rm -r -f victim',
      'rm --recursive --force victim',
      'rm victim -rf',
      'command rm -rf victim',
      '\\rm -rf victim',
      "bash -c 'rm -rf victim'",
      'sh -c "cd . && rm -r -f victim"',
      'env A=1 nice -n 5 rm -rf victim',
      'find . -name victim -exec rm -rf {} +',
      'R=rm; $R -rf victim',
      'eval "$(printf "rm -rf victim")"',
      // Loops the policy splits without tree-sitter (plain-loop.ts).
      'ls | while read -r f; do rm -rf victim; done',
      'while true; do rm -fr victim && break; done',
      'echo victim | while IFS= read -r d; do rm -rf "$d"; done',
      'until false; do A=1 rm -r -f victim; break; done',
      'cd . && for d in vict*; do rm --recursive --force "$d"; done | cat > log.txt',
      // Lines around quoted heredocs, which the policy splits without tree-sitter (plain-heredoc.ts).
      "cat > notes.txt <<'EOF'\nnothing here\nEOF\nrm -rf victim",
      'git commit -m "$(cat <<\'EOF\'\nfix\nEOF\n)" || rm -r -f victim',
      "bash <<'EOF'\nrm -rf victim\nEOF",
      "echo x # <<'EOF'\nrm -rf victim\nEOF",
    ];
    const { server, sandbox } = await cli.setup(
      [
        {
          toolCalls: [
            ...forms.map((command, i) => ({ id: `d${i}`, name: 'Shell', args: { command } })),
            { id: 'ok', name: 'Shell', args: { command: 'echo allowed-output' } },
          ],
        },
        { text: 'done' },
      ],
      { extraToml: rules(['deny', 'Shell(rm -rf*)']) },
    );
    await mkdir(join(sandbox.workDir, 'victim'));
    await writeFile(join(sandbox.workDir, 'victim', 'keep.txt'), 'still here\n');
    const result = await sandbox.run(['--print', '--yolo', '-p', 'clean up']);
    expect(result.code).toBe(0);
    const sent = JSON.stringify(server.requests[1]!.body);
    expect(sent.match(/Refused by the permission rule `Shell\(rm -rf\*\)`/g)).toHaveLength(forms.length);
    expect(sent).toContain('cannot be ruled out');
    expect(sent).toContain('allowed-output');
    expect(await readFile(join(sandbox.workDir, 'victim', 'keep.txt'), 'utf8')).toBe('still here\n');
  });

  it('an allow rule for git does not cover git behind GIT_CONFIG_* or PATH=: those are asked (wire)', async () => {
    const { sandbox } = await cli.setup(
      [
        {
          toolCalls: [
            { id: 'g1', name: 'Shell', args: { command: 'git --version > allowed.txt' } },
            {
              id: 'g2',
              name: 'Shell',
              args: {
                command:
                  "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0='touch pwned-fsmonitor' git status",
              },
            },
          ],
        },
        {
          toolCalls: [
            { id: 'g3', name: 'Shell', args: { command: 'PATH=.:$PATH git status && touch pwned-path' } },
          ],
        },
      ],
      { extraToml: rules(['allow', 'Shell(git *)'], ['allow', 'Shell(> allowed.txt)']) },
    );
    const child = sandbox.spawn(['--wire']);
    const client = new WireClient(child);
    await client.request('initialize', { protocol_version: '1.10' });
    const asked = rejectEveryApproval(client);
    for (const prompt of ['check git', 'check again']) {
      expect((await client.request('prompt', { user_input: prompt })).result).toEqual({ status: 'finished' });
    }
    child.stdin!.end();
    await collect(child);
    // The plain git command ran under the rule, unasked; the other two were asked and rejected.
    expect(existsSync(join(sandbox.workDir, 'allowed.txt'))).toBe(true);
    expect(asked).toHaveLength(2);
    expect(asked[0]!.description).toContain('sets GIT_CONFIG_COUNT, GIT_CONFIG_KEY_0, GIT_CONFIG_VALUE_0');
    expect(asked[1]!.description).toContain('sets PATH');
    expect(existsSync(join(sandbox.workDir, 'pwned-fsmonitor'))).toBe(false);
    expect(existsSync(join(sandbox.workDir, 'pwned-path'))).toBe(false);
  });
});
