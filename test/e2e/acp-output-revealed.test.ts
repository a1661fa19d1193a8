import * as acp from '@agentclientprotocol/sdk';
import { expect, it } from 'vitest';
import { runEditor } from '../support/acp-editor.js';
import { useScriptedCli } from '../support/scripted-cli.js';

// Issue #24 over ACP (holes6, 4): a tool's output reached the editor raw (show5 revealed the
// permission content only), so what a command printed could reorder the text the person reads (a
// bidi override) or push its end 300 lines down; it is revealed now, as in every other front end.

const cli = useScriptedCli();
const RLO = '\u202e';

it('an ACP tool call update shows a command’s output with a bidi override and blank-line padding revealed', async () => {
  // The octal escapes print U+202E; `yes '' | head -300` prints 300 blank lines.
  const command = "printf 'ok #\\342\\200\\256 ;id\\n'; yes '' | head -300; echo tail";
  await cli.setup([{ toolCalls: [{ id: 's1', name: 'Shell', args: { command } }] }, { text: 'done' }]);
  const { result } = await runEditor({ sandbox: cli.sandbox }, async (ctx, editor) => {
    const { sessionId } = await ctx.request(acp.methods.agent.session.new, {
      cwd: cli.sandbox.workDir,
      mcpServers: [],
    });
    await ctx.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: 'text', text: 'go' }],
    });
    return editor.updates;
  });
  const texts = result.flatMap((update) =>
    update.sessionUpdate === 'tool_call_update'
      ? (update.content ?? []).map((block) =>
          block.type === 'content' && block.content.type === 'text' ? block.content.text : '',
        )
      : [],
  );
  const shown = texts.join('\n');
  expect(shown).toContain('ok #⟨U+202E⟩ ;id');
  expect(shown).toContain('tail');
  expect(shown).not.toContain(RLO);
  // The padding is one marker line: the end is in view.
  expect(shown).toContain('⟨300 blank lines⟩');
  expect(shown.split('\n').length).toBeLessThan(10);
});
