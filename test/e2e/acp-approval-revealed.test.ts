import * as acp from '@agentclientprotocol/sdk';
import { expect, it } from 'vitest';
import { runEditor } from '../support/acp-editor.js';
import { useScriptedCli } from '../support/scripted-cli.js';

// Proves: over ACP, the permission request's content shows a Shell command raw (bidi overrides, blank-line padding), unlike every other front end, so the editor's dialog can hide what runs.

const cli = useScriptedCli();

const RLO = '\u202e';
/** Reads `echo ok` in an editor that honours the bidi override; runs the rest too. */
const REORDERED = `echo ok #${RLO} ;id> /dev/null`;
/** The tail that runs is pushed 300 lines below what the dialog shows first. */
const PADDED = `echo ok${'\n'.repeat(300)}touch pwned-by-padding`;

function shownText(request: acp.RequestPermissionRequest): string {
  const blocks = request.toolCall.content ?? [];
  const texts = blocks.map((block) =>
    block.type === 'content' && block.content.type === 'text' ? block.content.text : '',
  );
  return [request.toolCall.title ?? '', ...texts].join('\n');
}

for (const [name, command] of [
  ['a bidi override', REORDERED],
  ['300 blank lines', PADDED],
] as const) {
  it(`an ACP permission request shows a command with ${name} revealed, as the terminal and web do`, async () => {
    await cli.setup([{ toolCalls: [{ id: 's1', name: 'Shell', args: { command } }] }, { text: 'done' }]);
    const { result } = await runEditor({ sandbox: cli.sandbox, answer: 'reject' }, async (ctx, editor) => {
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, {
        cwd: cli.sandbox.workDir,
        mcpServers: [],
      });
      await ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'text', text: 'go' }],
      });
      return editor.permissions;
    });
    expect(result).toHaveLength(1);
    const shown = shownText(result[0]!);
    expect(shown).not.toContain(RLO);
    expect(shown).not.toMatch(/\n{3,}/);
  });
}
