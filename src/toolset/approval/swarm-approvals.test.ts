import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionPolicy } from '../../policy/session-policy.js';
import { exec, runQuestion } from '../../policy/test-support/policy-table.js';
import { runInToolCall } from '../current-tool-call.js';
import { Approval } from './approval.js';
import { type ApprovalSource, runWithApprovalSource } from './approval-source.js';

let root: string;
beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-swarm-approvals-')));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const item = (agent: string, swarm: string): ApprovalSource => ({
  kind: 'foreground_turn',
  id: `${agent}-run`,
  agent_id: agent,
  parent_tool_call_id: 'call-1',
  swarm_id: swarm,
});

/** The session's policy with the session's Approval as its view of what was approved (as the app builds it). */
function policyWith(approval: Approval): SessionPolicy {
  return new SessionPolicy({
    workDir: root,
    additionalDirs: [],
    homes: { userHome: join(root, 'home'), kimiHome: join(root, 'home', '.kimi-ts') },
    sessionApprovals: approval,
  });
}

const decide = (policy: SessionPolicy, source: ApprovalSource, command: string) =>
  runWithApprovalSource(source, () =>
    policy.decide({ toolName: 'Shell', effects: [exec(command)], question: runQuestion(command) }),
  );

describe('a command prefix approved for a swarm, as the policy reads it', () => {
  it("covers that swarm's agents' simple commands only, and ends with the swarm", async () => {
    const approval = new Approval();
    const policy = policyWith(approval);
    // The person answers a1's `git status` for the swarm, commands starting with `git`.
    const asked = new Promise<string>((resolve) => {
      const stop = approval.runtime.subscribe((event) => {
        if (event.type !== 'request_created') return;
        stop();
        resolve(event.record.id);
      });
    });
    const toolCall = { type: 'function' as const, id: 'c1', function: { name: 'Shell', arguments: '{}' } };
    const answered = runWithApprovalSource(item('a1', 's1'), () =>
      runInToolCall({ toolCall, signal: new AbortController().signal, approvedActions: new Set() }, () =>
        approval.request('Shell', 'run command', 'Run command `git status`'),
      ),
    );
    approval.runtime.resolve(await asked, {
      response: 'approve_for_session',
      scope: 'prefix',
      prefix: 'git',
      forSwarm: true,
    });
    expect((await answered).approved).toBe(true);
    expect((await decide(policy, item('a2', 's1'), 'git log')).decision).toBe('allow');
    // Every part must start with the prefix, as for a session prefix.
    expect((await decide(policy, item('a2', 's1'), 'git log && rm -rf x')).decision).toBe('ask');
    expect((await decide(policy, item('b1', 's2'), 'git log')).decision).toBe('ask');
    expect((await decide(policy, { kind: 'foreground_turn', id: 'turn-1' }, 'git log')).decision).toBe('ask');
    approval.endSwarm('s1');
    expect((await decide(policy, item('a3', 's1'), 'git log')).decision).toBe('ask');
  });
});
