import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { type Editor, type EditorOptions, runEditor } from '../support/acp-editor.js';
import { BACKGROUND_COMMAND, backgroundAgentScenario } from '../support/background-agent-scenario.js';
import type { CliSandbox } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';

const cli = useScriptedCli();

/** `kimi-ts acp` in the current sandbox with the test editor connected (see test/support/acp-editor.ts). */
function withEditor<T>(
  options: Omit<EditorOptions, 'sandbox'> & { sandbox?: CliSandbox },
  op: (ctx: acp.ClientContext, editor: Editor) => Promise<T>,
): Promise<{ result: T; exitCode: number | null }> {
  return runEditor({ ...options, sandbox: options.sandbox ?? cli.sandbox }, op);
}

const text = (value: string): acp.ContentBlock[] => [{ type: 'text', text: value }];

describe('ACP server (kimi-ts acp)', () => {
  it('runs a prompt: streamed answer, a tool call the editor approves, its result', async () => {
    const { server, sandbox } = await cli.setup([
      { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: 'echo from-acp > made.txt' } }] },
      { text: 'Made the file.' },
    ]);
    const { result, exitCode } = await withEditor({}, async (ctx, editor) => {
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, {
        cwd: sandbox.workDir,
        mcpServers: [],
      });
      const reply = await ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: text('make it'),
      });
      return { reply, sessionId, editor };
    });
    expect(exitCode).toBe(0);
    expect(result.reply.stopReason).toBe('end_turn');
    expect(existsSync(join(sandbox.workDir, 'made.txt'))).toBe(true);
    const { updates, permissions } = result.editor;
    expect(permissions).toHaveLength(1);
    expect(permissions[0]).toMatchObject({
      sessionId: result.sessionId,
      toolCall: { toolCallId: 'c1', kind: 'execute' },
    });
    expect(permissions[0]?.options.map((o) => o.kind)).toEqual(['allow_once', 'allow_always', 'reject_once']);
    const commands = updates.find((u) => u.sessionUpdate === 'available_commands_update');
    expect(
      commands?.sessionUpdate === 'available_commands_update' &&
        commands.availableCommands.map((c) => c.name),
    ).toEqual(expect.arrayContaining(['compact', 'clear', 'yolo']));
    expect(updates.find((u) => u.sessionUpdate === 'tool_call')).toMatchObject({
      toolCallId: 'c1',
      kind: 'execute',
      status: 'pending',
    });
    expect(updates.find((u) => u.sessionUpdate === 'tool_call_update')).toMatchObject({
      toolCallId: 'c1',
      status: 'completed',
      title: 'Shell: echo from-acp > made.txt',
    });
    const answer = updates
      .filter((u) => u.sessionUpdate === 'agent_message_chunk')
      .map((u) => (u.content.type === 'text' ? u.content.text : ''))
      .join('');
    expect(answer).toBe('Made the file.');
    // The prompt reached the model as the user's message.
    expect(JSON.stringify(server.requests[0]?.body)).toContain('make it');
  });

  it('uses the MCP servers the editor passes with session/new', async () => {
    const { server, sandbox } = await cli.setup([
      { toolCalls: [{ id: 'm1', name: 'echo', args: { message: 'hello over MCP' } }] },
      { text: 'Echoed.' },
    ]);
    const everything = join(
      import.meta.dirname,
      '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js',
    );
    const { result } = await withEditor({}, async (ctx, editor) => {
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, {
        cwd: sandbox.workDir,
        mcpServers: [{ name: 'everything', command: process.execPath, args: [everything, 'stdio'], env: [] }],
      });
      const reply = await ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: text('echo it'),
      });
      return { reply, updates: editor.updates };
    });
    expect(result.reply.stopReason).toBe('end_turn');
    const body = server.requests[0]?.body as { tools?: { function: { name: string } }[] } | undefined;
    const tools = body?.tools ?? [];
    expect(tools.map((t) => t.function.name)).toContain('echo');
    const done = result.updates.find((u) => u.sessionUpdate === 'tool_call_update');
    expect(done).toMatchObject({ toolCallId: 'm1', status: 'completed' });
    expect(JSON.stringify(done)).toContain('hello over MCP');
  });

  it('a rejected permission stops the tool; session/load replays the conversation', async () => {
    const { sandbox } = await cli.setup([
      // The user's refusal ends the turn: the model is not called again.
      { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: 'touch never.txt' } }] },
    ]);
    const first = await withEditor({ answer: 'reject' }, async (ctx, editor) => {
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, {
        cwd: sandbox.workDir,
        mcpServers: [],
      });
      const reply = await ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: text('touch it'),
      });
      return { reply, sessionId, updates: editor.updates };
    });
    expect(first.result.reply.stopReason).toBe('end_turn');
    expect(existsSync(join(sandbox.workDir, 'never.txt'))).toBe(false);
    expect(first.result.updates.find((u) => u.sessionUpdate === 'tool_call_update')).toMatchObject({
      toolCallId: 'c1',
      status: 'failed',
    });

    // A new editor process loads the session and sees the conversation again.
    const second = await withEditor({}, async (ctx, editor) => {
      await ctx.request(acp.methods.agent.session.load, {
        sessionId: first.result.sessionId,
        cwd: sandbox.workDir,
        mcpServers: [],
      });
      const listed = await ctx.request(acp.methods.agent.session.list, { cwd: sandbox.workDir });
      const everywhere = await ctx.request(acp.methods.agent.session.list, {});
      const missing = await ctx
        .request(acp.methods.agent.session.load, {
          sessionId: 'no-such-session',
          cwd: sandbox.workDir,
          mcpServers: [],
        })
        .catch((error: unknown) => error);
      return { updates: [...editor.updates], missing, listed, everywhere };
    });
    const replayed = second.result.updates.filter((u) => u.sessionUpdate !== 'available_commands_update');
    expect(replayed.map((u) => u.sessionUpdate)).toEqual([
      'user_message_chunk',
      'tool_call',
      'tool_call_update',
    ]);
    expect(replayed[0]).toMatchObject({ content: { type: 'text', text: 'touch it' } });
    expect(replayed[2]).toMatchObject({ toolCallId: 'c1', status: 'failed' });
    expect(second.result.missing).toBeInstanceOf(acp.RequestError);
    for (const list of [second.result.listed, second.result.everywhere]) {
      expect(list.sessions).toEqual([
        expect.objectContaining({
          sessionId: first.result.sessionId,
          cwd: sandbox.workDir,
          title: 'touch it',
        }),
      ]);
    }
  });

  it('session/cancel stops a long tool (its process is gone) and the prompt ends as cancelled', async () => {
    const marker = `kimi-ts-acp-${process.pid}-${Date.now()}`;
    const { sandbox } = await cli.setup([
      {
        toolCalls: [
          {
            id: 'c1',
            name: 'Shell',
            args: { command: `echo started > started.fifo; sleep 120; echo ${marker}` },
          },
        ],
      },
    ]);
    const fifo = join(sandbox.workDir, 'started.fifo');
    execFileSync('mkfifo', [fifo]);
    const running = () => {
      try {
        return execFileSync('pgrep', ['-f', marker], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
      } catch {
        return [];
      }
    };
    const { result } = await withEditor({ extraArgs: ['--yolo'] }, async (ctx) => {
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, {
        cwd: sandbox.workDir,
        mcpServers: [],
      });
      const prompt = ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: text('wait') });
      expect(await readFile(fifo, 'utf8')).toBe('started\n');
      expect(running().length).toBeGreaterThan(0);
      await ctx.notify(acp.methods.agent.session.cancel, { sessionId });
      return prompt;
    });
    expect(result.stopReason).toBe('cancelled');
    expect(running()).toEqual([]);
  });

  it("asks the editor for a background agent's permission while no prompt runs", async () => {
    const scenario = await backgroundAgentScenario();
    try {
      const { result } = await withEditor({ sandbox: scenario.sandbox }, async (ctx, editor) => {
        const { sessionId } = await ctx.request(acp.methods.agent.session.new, {
          cwd: scenario.sandbox.workDir,
          mcpServers: [],
        });
        const first = await ctx.request(acp.methods.agent.session.prompt, {
          sessionId,
          prompt: text('start it'),
        });
        expect(first.stopReason).toBe('end_turn');
        expect(editor.permissions).toEqual([]);
        scenario.releaseWorker();
        // The background agent's Shell call needs a permission: it comes with no prompt running.
        await editor.firstPermission();
        scenario.pushWaitForTask();
        const second = await ctx.request(acp.methods.agent.session.prompt, {
          sessionId,
          prompt: text('how did it go?'),
        });
        return { second, permissions: editor.permissions };
      });
      expect(result.permissions[0]?.toolCall.title).toContain(BACKGROUND_COMMAND);
      expect(result.second.stopReason).toBe('end_turn');
      const taskOutput = JSON.stringify(scenario.root.requests.at(-1)?.body);
      expect(taskOutput).toContain('status: completed');
      expect(taskOutput).toContain('Report: ran the command.');
    } finally {
      await scenario.close();
    }
  });
});
