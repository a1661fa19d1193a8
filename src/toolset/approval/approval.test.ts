import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolCall } from '../../kosong/index.js';
import { runInToolCall } from '../current-tool-call.js';
import { isRejectionWithoutFeedback, toolErrorKind } from '../tool-errors.js';
import { Approval, type ApprovalResult, type ApprovalStateJSON } from './approval.js';
import type { PendingApprovalRecord } from './approval-runtime.js';
import { runWithApprovalSource } from './approval-source.js';
import { ProjectApprovals } from './project-approvals.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-approval-state-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

let callCounter = 0;
/** Runs a request the way a tool does: inside a tool call scope. */
function ask(
  approval: Approval,
  action: string,
  description: string,
  signal = new AbortController().signal,
): Promise<ApprovalResult> {
  const toolCall: ToolCall = {
    type: 'function',
    id: `call-${++callCounter}`,
    function: { name: 'T', arguments: '{}' },
  };
  return runInToolCall({ toolCall, signal, approvedActions: new Set() }, () =>
    approval.request('T', action, description),
  );
}

function created(approval: Approval, count: number): Promise<PendingApprovalRecord[]> {
  const seen: PendingApprovalRecord[] = [];
  return new Promise((resolve) => {
    const stop = approval.runtime.subscribe((event) => {
      if (event.type !== 'request_created') return;
      seen.push(event.record);
      if (seen.length === count) {
        stop();
        resolve(seen);
      }
    });
  });
}

describe('Approval', () => {
  it('only accepts requests made from inside a tool call', async () => {
    await expect(new Approval().request('T', 'run command', 'Run `ls`')).rejects.toThrow(
      /outside a tool call/,
    );
  });

  it('approves on its own in yolo, afk and runtime-afk; turning afk off ends runtime-afk', async () => {
    const changes: ApprovalStateJSON[] = [];
    const approval = new Approval({ onChange: (state) => changes.push(state) });
    expect(approval.isAutoApprove()).toBe(false);
    approval.setYolo(true);
    expect((await ask(approval, 'x', 'x')).approved).toBe(true);
    approval.setYolo(false);
    approval.setRuntimeAfk(true);
    expect((await ask(approval, 'x', 'x')).approved).toBe(true);
    approval.setAfk(true);
    approval.setAfk(false);
    expect(approval.runtimeAfk).toBe(false);
    expect(approval.isAutoApprove()).toBe(false);
    // runtime-afk is never persisted, so it never reports a change.
    expect(changes.map((c) => [c.yolo, c.afk])).toEqual([
      [true, false],
      [false, false],
      [false, true],
      [false, false],
    ]);
  });

  it('approve-for-session covers by default only the exact request the user saw, and releases pending ones it covers', async () => {
    const approval = new Approval();
    const asked = created(approval, 3);
    const first = ask(approval, 'run command', 'Run command `npm test`');
    const same = ask(approval, 'run command', 'Run command `npm test`');
    const other = ask(approval, 'run command', 'Run command `rm -rf build`');
    const [a, , c] = await asked;
    approval.runtime.resolve(a!.id, { response: 'approve_for_session' });
    expect((await first).approved).toBe(true);
    expect((await same).approved).toBe(true);
    expect(approval.runtime.listPending().map((r) => r.id)).toEqual([c!.id]);
    // Later identical requests are answered without asking.
    expect((await ask(approval, 'run command', 'Run command `npm test`')).approved).toBe(true);
    approval.runtime.resolve(c!.id, { response: 'reject' });
    expect((await other).approved).toBe(false);
    expect(approval.toJSON()).toEqual({
      yolo: false,
      afk: false,
      auto_approve_actions: [],
      auto_approve_exact: [{ action: 'run command', description: 'Run command `npm test`' }],
    });
  });

  it('the wider scope, chosen explicitly, covers every request with the action', async () => {
    const approval = new Approval();
    const asked = created(approval, 1);
    const first = ask(approval, 'edit file', 'Write file `a.ts`');
    approval.runtime.resolve((await asked)[0]!.id, { response: 'approve_for_session', scope: 'action' });
    await first;
    expect((await ask(approval, 'edit file', 'Write file `b.ts`')).approved).toBe(true);
    expect(approval.toJSON().auto_approve_actions).toEqual(['edit file']);
    // Subagents share the state.
    expect(approval.share().isSessionApproved('edit file', 'Write file `c.ts`')).toBe(true);
  });

  it('restores its state from JSON (Kimi CLI state.json shape)', async () => {
    const approval = new Approval({
      state: { yolo: false, afk: false, auto_approve_actions: ['run command'] },
    });
    expect((await ask(approval, 'run command', 'Run command `anything`')).approved).toBe(true);
  });

  it('gives the rejection text for the root agent, for feedback, and a firmer one for subagents', async () => {
    const approval = new Approval();
    const reject = async (feedback: string, agentId?: string) => {
      const asked = created(approval, 1);
      const source = { kind: 'foreground_turn' as const, id: 't', agent_id: agentId ?? null };
      const pending = runWithApprovalSource(source, () => ask(approval, 'run command', 'Run `x`'));
      approval.runtime.resolve((await asked)[0]!.id, { response: 'reject', feedback });
      return (await pending).rejectionError();
    };
    const root = await reject('');
    expect(root.message).toMatch(/wait for the user/);
    expect(isRejectionWithoutFeedback(root)).toBe(true);
    const withFeedback = await reject('use the staging db');
    expect(withFeedback.message).toContain('use the staging db');
    expect(withFeedback.display).toEqual([{ type: 'brief', text: 'Rejected: use the staging db' }]);
    expect(isRejectionWithoutFeedback(withFeedback)).toBe(false);
    const sub = await reject('', 'a1b2c3d4');
    expect(sub.message).toMatch(/Do not retry the same call/);
    expect(toolErrorKind(sub)).toBe('rejected');
  });

  it('records the source of the request and cancels the request when the tool call is aborted', async () => {
    const approval = new Approval();
    const asked = created(approval, 1);
    const controller = new AbortController();
    const source = { kind: 'background_agent' as const, id: 'agent-1234abcd' };
    const pending = runWithApprovalSource(source, () =>
      ask(approval, 'run command', 'Run `x`', controller.signal),
    );
    const [record] = await asked;
    expect(record!.source).toEqual(source);
    controller.abort(new Error('turn cancelled'));
    await expect(pending).rejects.toThrow('turn cancelled');
    expect(approval.runtime.get(record!.id)?.status).toBe('cancelled');
  });

  it('rejects with "approval timed out" when a timeout is configured', async () => {
    const approval = new Approval({ timeoutMs: 5 });
    const result = await ask(approval, 'run command', 'Run `x`');
    expect([result.approved, result.feedback]).toEqual([false, 'approval timed out']);
  });
});

describe('project approvals', () => {
  it('persists a session approval for the project when asked, and a new session reads it back', async () => {
    const file = join(dir, 'projects', 'abc', 'approvals.json');
    const approval = new Approval({ projectApprovals: await ProjectApprovals.load(file) });
    const asked = created(approval, 2);
    const first = ask(approval, 'run command', 'Run command `npm test`');
    const second = ask(approval, 'edit file', 'Write file `x`');
    const [a, b] = await asked;
    approval.runtime.resolve(a!.id, { response: 'approve_for_session', persist: true });
    approval.runtime.resolve(b!.id, { response: 'approve_for_session' });
    await Promise.all([first, second]);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      version: 1,
      approvals: [{ scope: 'exact', action: 'run command', description: 'Run command `npm test`' }],
    });

    const nextSession = new Approval({ projectApprovals: await ProjectApprovals.load(file) });
    expect(nextSession.isSessionApproved('run command', 'Run command `npm test`')).toBe(true);
    expect(nextSession.isSessionApproved('edit file', 'Write file `x`')).toBe(false);
  });

  it('reports a malformed file by name', async () => {
    const file = join(dir, 'approvals.json');
    await writeFile(file, '{"version":1,"approvals":[{"scope":"everything"}]}');
    await expect(ProjectApprovals.load(file)).rejects.toThrow(file);
  });
});
