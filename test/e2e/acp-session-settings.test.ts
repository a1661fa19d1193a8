import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { workDirKey } from '../../src/session/work-dir-key.js';
import { runEditor } from '../support/acp-editor.js';
import { useScriptedCli } from '../support/scripted-cli.js';

const cli = useScriptedCli();

describe('ACP: plan mode as a session mode', () => {
  it('the editor switches to plan mode; the plan is shown and approved with a button; the mode follows', async () => {
    const { server, sandbox } = await cli.setup([
      { toolCalls: [{ id: 'x1', name: 'ExitPlanMode', args: {} }] },
      { text: 'Starting on the plan.' },
    ]);
    // The editor picks the first choice of each question: "Approve".
    const { result, exitCode } = await runEditor({ sandbox, answer: '0' }, async (ctx, editor) => {
      const created = await ctx.request(acp.methods.agent.session.new, {
        cwd: sandbox.workDir,
        mcpServers: [],
      });
      await expect(
        ctx.request(acp.methods.agent.session.setMode, { sessionId: created.sessionId, modeId: 'nonsense' }),
      ).rejects.toThrow(/Unknown mode/);
      await ctx.request(acp.methods.agent.session.setMode, { sessionId: created.sessionId, modeId: 'plan' });
      // As if the model had written its plan: the plan file plan mode named.
      const stateFile = join(
        sandbox.home,
        'sessions',
        workDirKey(sandbox.workDir),
        created.sessionId,
        'state.json',
      );
      const { plan_slug } = JSON.parse(await readFile(stateFile, 'utf8')) as { plan_slug: string };
      await mkdir(join(sandbox.home, 'plans'), { recursive: true });
      await writeFile(join(sandbox.home, 'plans', `${plan_slug}.md`), '1. Read the code\n2. Fix the bug\n');
      const reply = await ctx.request(acp.methods.agent.session.prompt, {
        sessionId: created.sessionId,
        prompt: [{ type: 'text', text: 'plan the fix' }],
      });
      const loaded = await ctx.request(acp.methods.agent.session.load, {
        sessionId: created.sessionId,
        cwd: sandbox.workDir,
        mcpServers: [],
      });
      return { created, reply, loaded, editor };
    });
    expect(exitCode).toBe(0);
    const { created, reply, loaded, editor } = result;
    expect(created.modes).toEqual({
      currentModeId: 'default',
      availableModes: [expect.objectContaining({ id: 'default' }), expect.objectContaining({ id: 'plan' })],
    });
    expect(reply.stopReason).toBe('end_turn');
    // The model saw ExitPlanMode (only AskUserQuestion is hidden from ACP clients).
    const body = server.requests[0]?.body as { tools: { function: { name: string } }[] } | undefined;
    const names = body?.tools.map((t) => t.function.name);
    expect(names).toEqual(expect.arrayContaining(['EnterPlanMode', 'ExitPlanMode']));
    expect(names).not.toContain('AskUserQuestion');
    // The plan, then the question as a permission request with a button per choice.
    expect(editor.updates).toContainEqual({
      sessionUpdate: 'agent_message_chunk',
      content: { type: 'text', text: expect.stringContaining('1. Read the code\n2. Fix the bug') },
    });
    expect(editor.permissions).toHaveLength(1);
    expect(editor.permissions[0]).toMatchObject({
      toolCall: { toolCallId: 'x1', title: 'Plan: Approve this plan?' },
    });
    expect(editor.permissions[0]?.options.map((o) => [o.name, o.kind])).toEqual([
      ['Approve', 'allow_once'],
      ['Reject', 'reject_once'],
      ['Reject and Exit', 'reject_once'],
      ['Skip', 'reject_once'],
    ]);
    // Approving left plan mode: the editor's mode follows, and a reload says so too.
    expect(editor.updates).toContainEqual({ sessionUpdate: 'current_mode_update', currentModeId: 'default' });
    expect(loaded.modes?.currentModeId).toBe('default');
    expect(JSON.stringify(server.requests[1]?.body)).toContain('The user approved the plan.');
  });
});

describe('ACP: the model as a session config option', () => {
  it("offers the config's models and switches the session to the one the editor picks", async () => {
    const { server, sandbox } = await cli.setup([{ text: 'Hello from the other model.' }], {
      extraToml: '[models.other]\nprovider = "local"\nmodel = "other-model"\nmax_context_size = 50000\n',
    });
    const { result, exitCode } = await runEditor({ sandbox }, async (ctx) => {
      const created = await ctx.request(acp.methods.agent.session.new, {
        cwd: sandbox.workDir,
        mcpServers: [],
      });
      const sessionId = created.sessionId;
      const refused = await ctx
        .request(acp.methods.agent.session.setConfigOption, {
          sessionId,
          configId: 'model',
          value: 'nonsense',
        })
        .catch((error: unknown) => error);
      const switched = await ctx.request(acp.methods.agent.session.setConfigOption, {
        sessionId,
        configId: 'model',
        value: 'other',
      });
      const reply = await ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'text', text: 'hi' }],
      });
      return { created, refused, switched, reply };
    });
    expect(exitCode).toBe(0);
    expect(result.created.configOptions).toEqual([
      expect.objectContaining({
        id: 'model',
        category: 'model',
        type: 'select',
        currentValue: 'e2e',
        options: [
          { value: 'e2e', name: 'e2e', description: 'e2e-model (local)' },
          { value: 'other', name: 'other', description: 'other-model (local)' },
        ],
      }),
    ]);
    expect(result.refused).toBeInstanceOf(acp.RequestError);
    expect(String((result.refused as Error).message)).toMatch(/No model "nonsense"|Invalid params/);
    expect(result.switched.configOptions[0]).toMatchObject({ currentValue: 'other' });
    expect(result.reply.stopReason).toBe('end_turn');
    expect((server.requests[0]?.body as { model?: string } | undefined)?.model).toBe('other-model');
  });
});

describe('ACP: session lifecycle', () => {
  it('resumes without replay, closes, deletes; extra folders from the editor reach the session', async () => {
    const { server, sandbox } = await cli.setup([{ text: 'First answer.' }, { text: 'After resume.' }]);
    const extra = join(sandbox.root, 'extra');
    await mkdir(extra);
    const { result, exitCode } = await runEditor({ sandbox }, async (ctx, editor) => {
      const init = await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, {
        cwd: sandbox.workDir,
        mcpServers: [],
        additionalDirectories: [extra],
      });
      const sessionDir = join(sandbox.home, 'sessions', workDirKey(sandbox.workDir), sessionId);
      const state = JSON.parse(await readFile(join(sessionDir, 'state.json'), 'utf8')) as {
        additional_dirs: string[];
      };
      await ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'text', text: 'one' }],
      });
      await ctx.request(acp.methods.agent.session.close, { sessionId });
      const afterClose = await ctx
        .request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'two' }] })
        .catch((error: unknown) => error);
      const updatesBefore = editor.updates.length;
      const resumed = await ctx.request(acp.methods.agent.session.resume, {
        sessionId,
        cwd: sandbox.workDir,
      });
      const replayed = editor.updates
        .slice(updatesBefore)
        .filter((u) => u.sessionUpdate !== 'available_commands_update');
      const reply = await ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'text', text: 'three' }],
      });
      await ctx.request(acp.methods.agent.session.delete, { sessionId });
      const folderLeft = existsSync(sessionDir);
      // Deleting again is not an error for the client (the SDK treats "not found" as done).
      await ctx.request(acp.methods.agent.session.delete, { sessionId });
      const listed = await ctx.request(acp.methods.agent.session.list, { cwd: sandbox.workDir });
      return { init, state, afterClose, resumed, replayed, reply, folderLeft, listed };
    });
    expect(exitCode).toBe(0);
    expect(result.init.agentCapabilities?.sessionCapabilities).toMatchObject({
      resume: {},
      close: {},
      delete: {},
      additionalDirectories: {},
    });
    expect(result.state.additional_dirs).toEqual([extra]);
    expect(result.afterClose).toBeInstanceOf(acp.RequestError);
    expect(result.resumed.modes?.currentModeId).toBe('default');
    expect(result.replayed).toEqual([]);
    expect(result.reply.stopReason).toBe('end_turn');
    // The resumed session went on with its history: the second request carries the first exchange.
    expect(JSON.stringify(server.requests[1]?.body)).toContain('First answer.');
    expect(result.folderLeft).toBe(false);
    expect(result.listed.sessions).toEqual([]);
  });
});
