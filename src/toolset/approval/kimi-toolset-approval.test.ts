import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolOk } from '../../kosong/index.js';
import { KimiToolset } from '../kimi-toolset.js';
import { cleanDispatch, dispatchAll, openDispatch, toolCall } from '../test-support/dispatch.js';
import { testPolicy } from '../test-support/test-policy.js';
import { defineTool, type KimiTool } from '../tool-definition.js';
import { toolErrorKind } from '../tool-errors.js';
import { Approval } from './approval.js';
import type { ApprovalDecisionInput, ApprovalRuntime, PendingApprovalRecord } from './approval-runtime.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-approval-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A tool with a side effect that never asks for approval itself. */
function forgetfulWriter(): KimiTool {
  return defineTool({
    name: 'Scribble',
    description: 'Writes a file.',
    params: z.object({ path: z.string(), content: z.string() }),
    effect: 'writes-files',
    call: async ({ path, content }) => {
      await writeFile(path, content);
      return toolOk('', 'written');
    },
  });
}

/** Answers every approval request the runtime publishes with `decision`, recording what was asked. */
function autoAnswer(runtime: ApprovalRuntime, decision: ApprovalDecisionInput): PendingApprovalRecord[] {
  const asked: PendingApprovalRecord[] = [];
  runtime.subscribe((event) => {
    if (event.type !== 'request_created') return;
    asked.push(event.record);
    queueMicrotask(() => runtime.resolve(event.record.id, decision));
  });
  return asked;
}

/** Resolves with the next request the runtime publishes. */
function nextRequest(runtime: ApprovalRuntime): Promise<PendingApprovalRecord> {
  return new Promise((resolve) => {
    const stop = runtime.subscribe((event) => {
      if (event.type === 'request_created') {
        stop();
        resolve(event.record);
      }
    });
  });
}

describe('enforced approval', () => {
  it('a side-effecting tool that forgets to ask cannot write unless the user approves', async () => {
    const approval = new Approval();
    const toolset = new KimiToolset({ policy: testPolicy({ workDir: process.cwd(), approval }), approval });
    toolset.add(forgetfulWriter());
    const target = join(dir, 'out.txt');

    const rejecting = autoAnswer(approval.runtime, { response: 'reject' });
    const [rejected] = await dispatchAll(toolset, [
      toolCall('1', 'Scribble', { path: target, content: 'no' }),
    ]);
    expect(existsSync(target)).toBe(false);
    expect(toolErrorKind(rejected!.return_value)).toBe('rejected');
    expect(rejecting[0]).toMatchObject({
      sender: 'Scribble',
      action: 'writes-files:Scribble',
      description: `Call \`Scribble\` (writes files) with arguments {"content":"no","path":${JSON.stringify(target)}}`,
      tool_call_id: '1',
    });

    const approving = new Approval();
    const approvedToolset = new KimiToolset({
      policy: testPolicy({ workDir: process.cwd(), approval: approving }),
      approval: approving,
    });
    approvedToolset.add(forgetfulWriter());
    autoAnswer(approving.runtime, { response: 'approve' });
    const [approved] = await dispatchAll(approvedToolset, [
      toolCall('2', 'Scribble', { path: target, content: 'yes' }),
    ]);
    expect(approved!.return_value.is_error).toBe(false);
    expect(await readFile(target, 'utf8')).toBe('yes');
  });

  it('refuses side effects when there is no approval at all, and lets read-only tools run', async () => {
    const toolset = new KimiToolset({ policy: testPolicy({ workDir: process.cwd() }) });
    toolset.add(forgetfulWriter());
    toolset.add(
      defineTool({
        name: 'Peek',
        description: '',
        params: z.object({}),
        effect: 'read-only',
        call: () => toolOk('ok'),
      }),
    );
    const target = join(dir, 'never.txt');
    const [write, peek] = await dispatchAll(toolset, [
      toolCall('1', 'Scribble', { path: target, content: 'x' }),
      toolCall('2', 'Peek', {}),
    ]);
    expect(toolErrorKind(write!.return_value)).toBe('no_approval');
    expect(existsSync(target)).toBe(false);
    expect(peek!.return_value.output).toBe('ok');
  });

  it('runs without asking in yolo mode', async () => {
    const approval = new Approval({ state: { yolo: true } });
    const asked = autoAnswer(approval.runtime, { response: 'reject' });
    const toolset = new KimiToolset({ policy: testPolicy({ workDir: process.cwd(), approval }), approval });
    toolset.add(forgetfulWriter());
    const target = join(dir, 'yolo.txt');
    await dispatchAll(toolset, [toolCall('1', 'Scribble', { path: target, content: 'y' })]);
    expect(asked).toEqual([]);
    expect(await readFile(target, 'utf8')).toBe('y');
  });

  it("uses the tool's own question, honours its auto-approval, and answers the tool's repeat request at once", async () => {
    const approval = new Approval();
    const asked = autoAnswer(approval.runtime, { response: 'approve' });
    const toolset = new KimiToolset({ policy: testPolicy({ workDir: process.cwd(), approval }), approval });
    const innerAnswers: boolean[] = [];
    toolset.add(
      defineTool({
        name: 'Run',
        description: '',
        params: z.object({ command: z.string() }),
        effect: 'runs-commands',
        approval: ({ command }) =>
          command === 'plan'
            ? { autoApprove: 'writing the plan file in plan mode' }
            : {
                action: 'run command',
                description: `Run command \`${command}\``,
                display: [{ type: 'shell', language: 'bash', command }],
              },
        call: async ({ command }, ctx) => {
          const asker = { call: ctx.scope, run: ctx.run };
          innerAnswers.push(
            (await approval.request('Run', 'run command', `Run command \`${command}\``, [], asker)).approved,
          );
          if (command !== 'plan')
            innerAnswers.push(
              (await approval.request('Run', 'delete files', 'Delete build/', [], asker)).approved,
            );
          return toolOk(command);
        },
      }),
    );
    await dispatchAll(toolset, [toolCall('1', 'Run', { command: 'make' })]);
    expect(asked.map((r) => [r.action, r.description])).toEqual([
      ['run command', 'Run command `make`'],
      ['delete files', 'Delete build/'],
    ]);
    expect(asked[0]!.display).toEqual([{ type: 'shell', language: 'bash', command: 'make' }]);
    expect(innerAnswers).toEqual([true, true]);

    asked.length = 0;
    const [plan] = await dispatchAll(toolset, [toolCall('2', 'Run', { command: 'plan' })]);
    // Auto-approved by the tool: the toolset did not ask; the tool's own request for the action did.
    expect(asked.map((r) => r.action)).toEqual(['run command']);
    expect(plan!.return_value.output).toBe('plan');
  });
});

describe('side effects only after a clean end of the model stream', () => {
  it('asks at once but runs only when the stream ended cleanly; read-only tools start at once', async () => {
    const approval = new Approval();
    const toolset = new KimiToolset({ policy: testPolicy({ workDir: process.cwd(), approval }), approval });
    toolset.add(forgetfulWriter());
    let peeked = false;
    toolset.add(
      defineTool({
        name: 'Peek',
        description: '',
        params: z.object({}),
        effect: 'read-only',
        call: () => {
          peeked = true;
          return toolOk();
        },
      }),
    );
    const target = join(dir, 'late.txt');
    const { dispatch, endStream } = openDispatch();
    const request = nextRequest(approval.runtime);
    const write = Promise.resolve(
      toolset.handle(toolCall('1', 'Scribble', { path: target, content: 'late' }), dispatch),
    );
    const peek = Promise.resolve(toolset.handle(toolCall('2', 'Peek', {}), dispatch));
    await peek;
    expect(peeked).toBe(true);

    const record = await request;
    approval.runtime.resolve(record.id, { response: 'approve' });
    // Approved, but the stream is still open: give the tool every chance to (wrongly) run.
    await new Promise((resolve) => setImmediate(resolve));
    expect(existsSync(target)).toBe(false);

    endStream(true);
    expect((await write).return_value.is_error).toBe(false);
    expect(await readFile(target, 'utf8')).toBe('late');
  });

  it('never runs a side-effecting call when the stream was cut, and withdraws its pending question', async () => {
    const approval = new Approval();
    const toolset = new KimiToolset({ policy: testPolicy({ workDir: process.cwd(), approval }), approval });
    toolset.add(forgetfulWriter());
    const target = join(dir, 'cut.txt');
    const { dispatch, endStream, abort } = openDispatch();
    const request = nextRequest(approval.runtime);
    const write = Promise.resolve(
      toolset.handle(toolCall('1', 'Scribble', { path: target, content: 'x' }), dispatch),
    );
    const record = await request;
    // What `step` does when generation fails: settle the stream as failed, then abort the tools.
    endStream(false);
    abort(new Error('stream broke'));
    const result = await write;
    expect(toolErrorKind(result.return_value)).toBe('not_run');
    expect(result.return_value.message).toMatch(/not run/);
    expect(approval.runtime.get(record.id)?.status).toBe('cancelled');
    expect(approval.runtime.listPending()).toEqual([]);
    expect(existsSync(target)).toBe(false);
  });

  it('does not run an already approved call when the stream fails afterwards', async () => {
    const approval = new Approval({ state: { yolo: true } });
    const toolset = new KimiToolset({ policy: testPolicy({ workDir: process.cwd(), approval }), approval });
    toolset.add(forgetfulWriter());
    const target = join(dir, 'approved-but-cut.txt');
    const { dispatch, endStream } = openDispatch();
    const write = Promise.resolve(
      toolset.handle(toolCall('1', 'Scribble', { path: target, content: 'x' }), dispatch),
    );
    endStream(false);
    expect(toolErrorKind((await write).return_value)).toBe('not_run');
    expect(existsSync(target)).toBe(false);
  });

  it('returns a cancelled result when the step is aborted while waiting for approval', async () => {
    const approval = new Approval();
    const toolset = new KimiToolset({ policy: testPolicy({ workDir: process.cwd(), approval }), approval });
    toolset.add(forgetfulWriter());
    const controller = new AbortController();
    const request = nextRequest(approval.runtime);
    const write = Promise.resolve(
      toolset.handle(
        toolCall('1', 'Scribble', { path: join(dir, 'x'), content: 'x' }),
        cleanDispatch(controller.signal),
      ),
    );
    const record = await request;
    controller.abort();
    expect(toolErrorKind((await write).return_value)).toBe('cancelled');
    expect(approval.runtime.get(record.id)?.status).toBe('cancelled');
  });
});
