import * as acp from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { runEditor } from '../support/acp-editor.js';
import { useScriptedCli } from '../support/scripted-cli.js';

const cli = useScriptedCli();
const UNKNOWN = 'unknown command /nosuch — /help lists them';

describe('unknown commands and empty prompts in the line shell and ACP', () => {
  it('the line shell answers /nosuch itself', async () => {
    await cli.setup([]);
    const result = await cli.sandbox.run([], { input: '/nosuch please\n\n   \n/exit\n' });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(UNKNOWN);
    expect(cli.server.requests).toHaveLength(0);
  });

  it('ACP answers /nosuch with a message and refuses an empty prompt', async () => {
    await cli.setup([]);
    const { result, exitCode } = await runEditor({ sandbox: cli.sandbox }, async (ctx, editor) => {
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, {
        cwd: cli.sandbox.workDir,
        mcpServers: [],
      });
      const unknown = await ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'text', text: '/nosuch' }],
      });
      const empty = await ctx
        .request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: '  ' }] })
        .then(
          () => null,
          (error: unknown) => error,
        );
      return { unknown, empty, editor };
    });
    expect(exitCode).toBe(0);
    expect(result.unknown.stopReason).toBe('end_turn');
    const said = result.editor.updates
      .filter((u) => u.sessionUpdate === 'agent_message_chunk')
      .map((u) => (u.content.type === 'text' ? u.content.text : ''))
      .join('');
    expect(said).toContain(UNKNOWN);
    expect(String((result.empty as Error | null)?.message)).toContain('The prompt is empty');
    expect(cli.server.requests).toHaveLength(0);
  });
});
