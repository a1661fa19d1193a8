import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { expect, it } from 'vitest';
import { runEditor } from '../support/acp-editor.js';
import { useScriptedCli } from '../support/scripted-cli.js';

// Issue #24 over ACP (show5's own variant of red5 finding 7): the editor's trust question names each
// allow rule it would put in force, and a rule written to hide (a bidi override, a newline that
// makes one pattern read as two rules) is shown revealed, on its own line, in the description.

const cli = useScriptedCli();

const RLO = '\u202e';

it('an editor asked about trust gets every allow rule, revealed and one a line', async () => {
  await cli.setup([{ text: 'hello' }]);
  await mkdir(join(cli.sandbox.workDir, '.kimi-ts'), { recursive: true });
  await writeFile(
    join(cli.sandbox.workDir, '.kimi-ts', 'permissions.toml'),
    [
      '[[permission.rules]]\ndecision = "allow"\npattern = "Shell(npm test)"\n',
      `[[permission.rules]]\ndecision = "allow"\npattern = "Shell(ls #${RLO} *)"\n`,
      '[[permission.rules]]\ndecision = "allow"\npattern = "Shell(git status\\n  allow Shell(pwd))"\n',
    ].join('\n'),
  );
  const asked: { description: string; allow_rules: string[] }[] = [];
  await runEditor(
    {
      sandbox: cli.sandbox,
      answer: 'reject',
      clientCapabilities: { _meta: { 'kimi-ts/workspace_trust': true } },
      handlers: (client) =>
        client.onRequest(
          '_kimi-ts/workspace_trust',
          (params: unknown) => params as { description: string; allow_rules: string[] },
          ({ params }) => {
            asked.push(params);
            return { trusted: false };
          },
        ),
    },
    async (ctx) => {
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, {
        cwd: cli.sandbox.workDir,
        mcpServers: [],
      });
      await ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'text', text: 'hi' }],
      });
    },
  );
  expect(asked).toHaveLength(1);
  const { description, allow_rules } = asked[0]!;
  // The rules as written, for a client that renders them itself.
  expect(allow_rules).toEqual([
    'Shell(npm test)',
    `Shell(ls #${RLO} *)`,
    'Shell(git status\n  allow Shell(pwd))',
  ]);
  // The description, for one that shows only that: each rule on its line, nothing hidden or forged.
  const lines = description.split('\n');
  expect(lines).toContain('  allow Shell(npm test)');
  expect(lines).toContain('  allow Shell(ls #⟨U+202E⟩ *)');
  expect(lines).toContain('  allow Shell(git status␊  allow Shell(pwd))');
  expect(description).not.toContain(RLO);
  expect(lines.filter((line) => line.startsWith('  allow '))).toHaveLength(3);
});
