import * as acp from '@agentclientprotocol/sdk';
import { expect, it } from 'vitest';
import { runEditor } from '../support/acp-editor.js';
import { useScriptedCli } from '../support/scripted-cli.js';

// Issue #24 over ACP (show5's own variant of red5 finding 6): a file edit's permission request shows
// its diff revealed: a Trojan Source WriteFile (bidi isolates that make `rm` read as a comment) and
// a zero-width run reach the editor's dialog as markers, with every line of the file kept.

const cli = useScriptedCli();

const CONTENT =
  '#!/bin/sh\n# check the build \u202e\u2066\nrm -rf ~/important \u2069\u2066# done\n\n\n\nx\u200b\u200by\n';

it('an ACP edit approval shows the diff with bidi controls and invisible runs as markers', async () => {
  await cli.setup([
    { toolCalls: [{ id: 'w1', name: 'WriteFile', args: { path: 'check.sh', content: CONTENT } }] },
    { text: 'written' },
  ]);
  const { result } = await runEditor({ sandbox: cli.sandbox, answer: 'reject' }, async (ctx, editor) => {
    const { sessionId } = await ctx.request(acp.methods.agent.session.new, {
      cwd: cli.sandbox.workDir,
      mcpServers: [],
    });
    await ctx.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: 'text', text: 'write the check' }],
    });
    return editor.permissions;
  });
  expect(result).toHaveLength(1);
  const diffs = (result[0]!.toolCall.content ?? []).flatMap((block) =>
    block.type === 'diff' ? [block] : [],
  );
  expect(diffs).toHaveLength(1);
  const { newText, path } = diffs[0]!;
  expect(path).toMatch(/check\.sh$/);
  expect(newText).not.toMatch(/[\u202e\u2066\u2069\u200b]/u);
  expect(newText.split('\n')).toEqual([
    '#!/bin/sh',
    '# check the build ⟨U+202E⟩⟨U+2066⟩',
    'rm -rf ~/important ⟨U+2069⟩⟨U+2066⟩# done',
    '',
    '',
    '',
    'x⟨U+200B ×2⟩y',
  ]);
});
