import type { Config } from '../../config/schema.js';
import type { HookEngine } from '../../hooks/types.js';
import type { SessionPolicy } from '../../policy/index.js';
import type { Session } from '../../session/session.js';
import { runSoul, type UILoop } from '../../soul/run-soul.js';
import type { LoopControl, SoulLLM } from '../../soul/soul-parts.js';
import type { Approval } from '../../toolset/approval/approval.js';
import type { ApprovalSource } from '../../toolset/approval/approval-source.js';
import type { ToolDependencyTable } from '../../toolset/loading/dependencies.js';
import type { ContextFileGuard } from '../context-file-guard.js';
import type { Skill } from '../skills.js';
import type { SubagentInstanceStore, SubagentRecord } from './instance-store.js';
import type { IsolatedWorkspace } from './isolated-workspace.js';
import type { RootWireTracker } from './root-wire-tracker.js';
import { runUntilReport } from './run-until-report.js';
import { SubagentLaunchError } from './subagent-failure.js';
import { openSubagentSoul } from './subagent-soul.js';
import type { SubagentType } from './subagent-types.js';

/** What every subagent run of a session shares. */
export interface SubagentServices {
  session: Session;
  config: Config;
  types: readonly SubagentType[];
  store: SubagentInstanceStore;
  rootDeps: ToolDependencyTable;
  /** The session's policy: it decides every subagent's calls. */
  policy: SessionPolicy;
  approval: Approval;
  hooks: HookEngine;
  /** The root's model now: a new subagent without a model of its own uses it. */
  currentLLM: () => SoulLLM | null;
  loopControl: LoopControl;
  llmForAlias: (alias: string) => Promise<SoulLLM | null>;
  env: Readonly<Record<string, string | undefined>>;
  rootWires: RootWireTracker;
  /** The session's skills (listed in subagents' system prompts). */
  skills?: readonly Skill[] | undefined;
  /** What AGENTS.md files may be read into subagents' system prompts. */
  contextFiles: ContextFileGuard;
  /**
   * Whether the work dir is trusted (or below a trusted folder): only then does kimi-ts run git there itself (an explorer's git
   * context), since a repository's own `.git/config` (core.fsmonitor, filters) runs commands.
   */
  workspaceTrusted?: (() => boolean) | undefined;
}

/** A validated request: the instance (new or resumed), its type and model. */
export interface PreparedRun {
  record: SubagentRecord;
  /** Created for this request (so it can be deleted if the launch fails). */
  fresh: boolean;
  type: SubagentType;
  llm: SoulLLM | null;
  /** The type asked for when resuming, echoed when it differs from the stored one. */
  requestedType: string | null;
  description: string;
  prompt: string;
  /** An isolated run's worktree (its work dir, policy and sandbox); absent: the session's. */
  workspace?: IsolatedWorkspace | undefined;
}

/**
 * Opens the instance's soul and runs one task on it in a run of its own: its own wire (recorded to
 * the instance's wire.jsonl) with `forward` as its front end, its approval requests tagged with
 * `source`. Returns the report; the soul is closed either way.
 */
export async function runInstance(
  services: SubagentServices,
  run: PreparedRun,
  options: { cancel: AbortSignal; source: ApprovalSource; forward: UILoop },
): Promise<string> {
  const paths = services.store.paths(run.record.agent_id);
  let instance: Awaited<ReturnType<typeof openSubagentSoul>>;
  try {
    await services.store.writePrompt(run.record.agent_id, run.prompt);
    instance = await openSubagentSoul({
      rootSession: services.session,
      paths,
      type: run.type,
      llm: run.llm,
      loopControl: services.loopControl,
      hooks: services.hooks,
      approval: services.approval,
      rootDeps: services.rootDeps,
      policy: services.policy,
      env: services.env,
      skills: services.skills,
      contextFiles: services.contextFiles,
      workspace: run.workspace,
    });
  } catch (error) {
    throw new SubagentLaunchError(error instanceof Error ? error.message : String(error), { cause: error });
  }
  try {
    let report = '';
    await runSoul(
      async (signal, wire) => {
        report = await runUntilReport(instance.soul, run.prompt, signal, {
          wire,
          approvalSource: options.source,
        });
      },
      options.forward,
      options.cancel,
      { wireFile: paths.wire, redaction: services.rootDeps.secrets, currentWire: false },
    );
    return report;
  } finally {
    await instance.close();
  }
}
