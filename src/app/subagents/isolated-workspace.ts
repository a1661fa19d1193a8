import { join } from 'node:path';
import type { SessionPolicy } from '../../policy/index.js';
import type { CommandSandbox } from '../../policy/sandbox.js';
import {
  type AgentWorktree,
  addAgentWorktree,
  finishAgentWorktree,
  type WorktreeOutcome,
} from './agent-worktree.js';

/**
 * Where an isolated subagent works: its worktree is its work dir, its policy's workspace (the one
 * root file tools may write without asking) and its sandbox's one writable root. The session's own
 * work dir and add-dirs are outside for it.
 */
export interface IsolatedWorkspace {
  readonly worktree: AgentWorktree;
  readonly workDir: string;
  readonly policy: SessionPolicy;
  readonly commandSandbox: CommandSandbox | null;
}

/** `<agent home>/worktrees/<session id>/`: the worktrees of one session. */
export function sessionWorktreesDir(kimiHome: string, sessionId: string): string {
  return join(kimiHome, 'worktrees', sessionId.replace(/[^A-Za-z0-9_-]/g, '_'));
}

/** Makes the worktree of one isolated run and the policy and sandbox held to it. */
export async function openIsolatedWorkspace(options: {
  workDir: string;
  worktreesDir: string;
  ownerId: string;
  index: number;
  policy: SessionPolicy;
  commandSandbox: CommandSandbox | null;
  signal: AbortSignal;
}): Promise<IsolatedWorkspace> {
  const worktree = await addAgentWorktree(options);
  return {
    worktree,
    workDir: worktree.workDir,
    // The whole checkout is writable, though the run starts in the work dir's counterpart.
    policy: options.policy.forWorkspace(worktree.path),
    commandSandbox: options.commandSandbox?.forWorkspace(worktree.path) ?? null,
  };
}

/** Commits the run's changes on its branch and removes the worktree (see finishAgentWorktree). */
export function closeIsolatedWorkspace(
  workspace: IsolatedWorkspace,
  subject: string,
): Promise<WorktreeOutcome> {
  return finishAgentWorktree(workspace.worktree, subject);
}
