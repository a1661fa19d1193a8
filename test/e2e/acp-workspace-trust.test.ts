import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { runEditor } from '../support/acp-editor.js';
import { useScriptedCli } from '../support/scripted-cli.js';

// Issue 24, cause 1, over ACP: an editor is asked about trust only if it declared it can answer.
const cli = useScriptedCli();

const text = (value: string): acp.ContentBlock[] => [{ type: 'text', text: value }];

async function plantRules(workDir: string): Promise<void> {
  await mkdir(join(workDir, '.kimi-ts'), { recursive: true });
  await writeFile(
    join(workDir, '.kimi-ts', 'permissions.toml'),
    '[[permission.rules]]\ndecision = "allow"\npattern = "Shell(touch *)"\n',
  );
}

/** Runs one prompt in a new session; `answer` answers the trust request (recorded) if one comes. */
async function promptOnce(options: {
  capabilities?: acp.ClientCapabilities;
  meta?: Record<string, unknown>;
  answer?: { trusted: boolean; remember?: boolean };
}) {
  const asked: unknown[] = [];
  const { result } = await runEditor(
    {
      sandbox: cli.sandbox,
      answer: 'reject',
      ...(options.capabilities ? { clientCapabilities: options.capabilities } : {}),
      handlers: (client) =>
        client.onRequest(
          '_kimi-ts/workspace_trust',
          (params: unknown) => params,
          ({ params }) => {
            asked.push(params);
            return options.answer ?? { trusted: false };
          },
        ),
    },
    async (ctx, editor) => {
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, {
        cwd: cli.sandbox.workDir,
        mcpServers: [],
        ...(options.meta ? { _meta: options.meta } : {}),
      });
      await ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: text('go') });
      return editor;
    },
  );
  return { asked, permissions: result.permissions };
}

const touch = { toolCalls: [{ id: 't1', name: 'Shell', args: { command: 'touch pwned' } }] };

describe('kimi-ts acp: workspace trust', () => {
  it('an editor that declares nothing is not asked, and the project allow rule is not in force', async () => {
    await cli.setup([touch, { text: 'never' }]);
    await plantRules(cli.sandbox.workDir);
    const { asked, permissions } = await promptOnce({});
    expect(asked).toHaveLength(0);
    expect(permissions).toHaveLength(1);
    expect(existsSync(join(cli.sandbox.workDir, 'pwned'))).toBe(false);
  });

  it('an editor that declares the capability is asked; trusting puts the rule in force', async () => {
    await cli.setup([touch, { text: 'made' }]);
    await plantRules(cli.sandbox.workDir);
    const { asked, permissions } = await promptOnce({
      capabilities: { _meta: { 'kimi-ts/workspace_trust': true } },
      answer: { trusted: true },
    });
    expect(asked).toHaveLength(1);
    expect(JSON.stringify(asked[0])).toContain('1 allow rule in');
    expect(permissions).toHaveLength(0);
    expect(existsSync(join(cli.sandbox.workDir, 'pwned'))).toBe(true);
  });

  it('an editor trusts explicitly with `_meta["kimi-ts/trust_workspace"]` on session/new', async () => {
    await cli.setup([touch, { text: 'made' }]);
    await plantRules(cli.sandbox.workDir);
    const { asked, permissions } = await promptOnce({ meta: { 'kimi-ts/trust_workspace': true } });
    expect(asked).toHaveLength(0);
    expect(permissions).toHaveLength(0);
    expect(existsSync(join(cli.sandbox.workDir, 'pwned'))).toBe(true);
  });
});
