import { type ChildProcess, spawn } from 'node:child_process';
import * as acp from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { type Editor, runEditor } from '../support/acp-editor.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import type { ScriptedTurn } from '../support/scripted-llm-server.js';

const cli = useScriptedCli();

interface Terminal {
  child: ChildProcess;
  output: string;
  exit: Promise<acp.TerminalExitStatus>;
  done: acp.TerminalExitStatus | null;
}

/**
 * An editor's terminals, as a real editor runs them: each command in a shell of its own (a process
 * group, so kill reaches the command too), output collected for `terminal/output`.
 */
class EditorTerminals {
  readonly created: acp.CreateTerminalRequest[] = [];
  readonly killed: string[] = [];
  readonly released: string[] = [];
  private readonly terminals = new Map<string, Terminal>();

  register(app: acp.ClientApp): acp.ClientApp {
    return app
      .onRequest(acp.methods.client.terminal.create, ({ params }) => {
        this.created.push(params);
        const terminalId = `term-${this.created.length}`;
        const child = spawn('bash', ['-c', params.command], {
          cwd: params.cwd ?? undefined,
          detached: true,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        const terminal: Terminal = {
          child,
          output: '',
          done: null,
          exit: new Promise((resolve) =>
            child.on('close', (exitCode, signal) => {
              terminal.done = { exitCode, signal };
              resolve(terminal.done);
            }),
          ),
        };
        for (const stream of [child.stdout, child.stderr]) {
          stream?.setEncoding('utf8').on('data', (text: string) => {
            terminal.output += text;
          });
        }
        this.terminals.set(terminalId, terminal);
        return { terminalId };
      })
      .onRequest(acp.methods.client.terminal.output, ({ params }) => {
        const terminal = this.get(params.terminalId);
        return { output: terminal.output, truncated: false, exitStatus: terminal.done };
      })
      .onRequest(acp.methods.client.terminal.waitForExit, ({ params }) => this.get(params.terminalId).exit)
      .onRequest(acp.methods.client.terminal.kill, async ({ params }) => {
        this.killed.push(params.terminalId);
        const { child } = this.get(params.terminalId);
        if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
        await this.get(params.terminalId).exit;
        return {};
      })
      .onRequest(acp.methods.client.terminal.release, ({ params }) => {
        this.released.push(params.terminalId);
        return {};
      });
  }

  private get(terminalId: string): Terminal {
    const terminal = this.terminals.get(terminalId);
    if (!terminal) throw acp.RequestError.invalidParams(undefined, `no terminal ${terminalId}`);
    return terminal;
  }
}

/** Runs one prompt in an editor with terminals; `during` runs while the prompt is under way. */
async function promptWithTerminals(
  turns: ScriptedTurn[],
  during?: (ctx: acp.ClientContext, editor: Editor, sessionId: string) => Promise<void>,
) {
  // The editor's terminal runs commands only with the sandbox off (a sandboxed session keeps its own
  // Shell: trust-sandbox.test.ts).
  const { sandbox } = await cli.setup(turns, { extraToml: '[sandbox]\nmode = "off"\n' });
  const terminals = new EditorTerminals();
  const { result, exitCode } = await runEditor(
    {
      sandbox,
      clientCapabilities: { terminal: true },
      handlers: (app) => terminals.register(app),
    },
    async (ctx, editor: Editor) => {
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, {
        cwd: sandbox.workDir,
        mcpServers: [],
      });
      const replied = ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'text', text: 'run it' }],
      });
      await during?.(ctx, editor, sessionId);
      return { reply: await replied, editor };
    },
  );
  expect(exitCode).toBe(0);
  return { ...result, terminals };
}

/** What the model was told about the tool call (the tool message of the second request). */
function toolMessageSent(): string {
  const body = cli.server.requests[1]?.body as { messages: { role: string; content: unknown }[] } | undefined;
  return JSON.stringify(body?.messages.filter((m) => m.role === 'tool') ?? []);
}

describe('ACP: Shell in the editor terminal', () => {
  it("runs a foreground command in the editor's terminal, shown live, with its output and exit code for the model", async () => {
    const { reply, editor, terminals } = await promptWithTerminals([
      { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: 'echo hi-from-terminal; pwd; exit 3' } }] },
      { text: 'It failed.' },
    ]);
    expect(reply.stopReason).toBe('end_turn');
    expect(editor.permissions).toHaveLength(1);
    expect(terminals.created).toEqual([
      expect.objectContaining({
        command: 'echo hi-from-terminal; pwd; exit 3',
        cwd: cli.sandbox.workDir,
        outputByteLimit: 50_000,
      }),
    ]);
    // The editor hears of the call first, then gets the terminal to show, then the outcome, which
    // leaves the terminal in place (no content of its own).
    const forCall = editor.updates.filter(
      (u) =>
        (u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update') && u.toolCallId === 'c1',
    );
    expect(forCall[0]).toMatchObject({ sessionUpdate: 'tool_call', status: 'pending' });
    expect(forCall).toContainEqual(
      expect.objectContaining({
        sessionUpdate: 'tool_call_update',
        status: 'in_progress',
        content: [{ type: 'terminal', terminalId: 'term-1' }],
      }),
    );
    const last = forCall.at(-1)!;
    expect(last).toMatchObject({ sessionUpdate: 'tool_call_update', status: 'failed' });
    expect(last).not.toHaveProperty('content');
    expect(terminals.released).toEqual(['term-1']);
    const told = toolMessageSent();
    expect(told).toContain('hi-from-terminal');
    expect(told).toContain(cli.sandbox.workDir);
    expect(told).toContain('Command failed with exit code: 3.');
  });

  it('kills a command that outlives its timeout', async () => {
    const { reply, terminals } = await promptWithTerminals([
      { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: 'echo started; sleep 30', timeout: 1 } }] },
      { text: 'Too slow.' },
    ]);
    expect(reply.stopReason).toBe('end_turn');
    expect(terminals.killed).toEqual(['term-1']);
    expect(terminals.released).toEqual(['term-1']);
    const told = toolMessageSent();
    expect(told).toContain('started');
    expect(told).toContain('Command killed by timeout (1s)');
  });

  it('session/cancel kills the command in the terminal and ends the prompt as cancelled', async () => {
    const { reply, terminals } = await promptWithTerminals(
      [{ toolCalls: [{ id: 'c1', name: 'Shell', args: { command: 'sleep 30' } }] }],
      async (ctx, editor, sessionId) => {
        await editor.nextUpdate((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'in_progress');
        await ctx.notify(acp.methods.agent.session.cancel, { sessionId });
      },
    );
    expect(reply.stopReason).toBe('cancelled');
    expect(terminals.killed).toEqual(['term-1']);
    expect(terminals.released).toEqual(['term-1']);
    expect(cli.server.requests).toHaveLength(1);
  });

  it('keeps background commands local: a terminal cannot outlive the tool call', async () => {
    const { terminals } = await promptWithTerminals([
      {
        toolCalls: [
          {
            id: 'c1',
            name: 'Shell',
            args: { command: 'echo in-background', run_in_background: true, description: 'echo' },
          },
        ],
      },
      { text: 'Started.' },
    ]);
    expect(terminals.created).toEqual([]);
    expect(toolMessageSent()).toContain('Background task started.');
  });
});
