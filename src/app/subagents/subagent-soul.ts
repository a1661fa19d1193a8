import type { HookEngine } from '../../hooks/types.js';
import type { SessionPolicy } from '../../policy/index.js';
import type { Session } from '../../session/session.js';
import { readSessionState } from '../../session/state.js';
import { Context } from '../../soul/context/context.js';
import type { Soul } from '../../soul/soul.js';
import type { LoopControl, SoulLLM } from '../../soul/soul-parts.js';
import type { Approval } from '../../toolset/approval/approval.js';
import { KimiToolset } from '../../toolset/kimi-toolset.js';
import type { ToolDependencyTable } from '../../toolset/loading/dependencies.js';
import type { ContextFileGuard } from '../context-file-guard.js';
import { redactToolOutput } from '../redact-tool-output.js';
import { createSessionStore } from '../session-store.js';
import type { Skill } from '../skills.js';
import { assembleSoul } from '../soul-assembly.js';
import { videoUploaderOf } from '../video-uploader.js';
import type { SubagentPaths } from './instance-store.js';
import type { IsolatedWorkspace } from './isolated-workspace.js';
import type { SubagentType } from './subagent-types.js';

export interface SubagentSoulParts {
  rootSession: Session;
  paths: SubagentPaths;
  type: SubagentType;
  llm: SoulLLM | null;
  loopControl: LoopControl;
  hooks: HookEngine;
  /** The root's approval; the subagent gets a copy sharing its state and runtime. */
  approval: Approval;
  /** The root's dependency table, read when the run starts (extensions may add to it late). */
  rootDeps: ToolDependencyTable;
  /** The session's policy: it decides the subagent's calls too. */
  policy: SessionPolicy;
  env: Readonly<Record<string, string | undefined>>;
  /** The session's skills, listed in the subagent's system prompt too. */
  skills?: readonly Skill[] | undefined;
  /** What AGENTS.md files may be read into the subagent's system prompt. */
  contextFiles: ContextFileGuard;
  /** An isolated run's worktree, policy and sandbox instead of the session's; absent: the session's. */
  workspace?: IsolatedWorkspace | undefined;
}

export interface OpenSubagentSoul {
  soul: Soul;
  close(): Promise<void>;
}

/**
 * Builds the soul of one subagent instance from its folder: its context (the system prompt frozen
 * into it on the first run), its todos, its own toolset with the type's tools loaded as for the
 * root but with role `subagent`, and its own D-Mail holder. Everything else is the root's.
 */
export async function openSubagentSoul(parts: SubagentSoulParts): Promise<OpenSubagentSoul> {
  const { paths, type, rootSession, workspace } = parts;
  // An isolated subagent sees its worktree as its work dir, with no add-dirs.
  const rootDeps: ToolDependencyTable = workspace
    ? {
        ...parts.rootDeps,
        workDir: workspace.workDir,
        additionalDirs: [],
        descriptionVars: { ...parts.rootDeps.descriptionVars, KIMI_WORK_DIR: workspace.workDir },
        commandSandbox: workspace.commandSandbox,
      }
    : parts.rootDeps;
  const policy = workspace?.policy ?? parts.policy;
  const context = await Context.restore(paths.context);
  try {
    const state = await readSessionState(paths.state);
    const approval = parts.approval.share();
    const secrets = rootDeps.secrets;
    if (secrets) context.redactWith((value) => redactToolOutput(secrets.redactDeep(value)));
    const { soul } = await assembleSoul({
      role: 'subagent',
      agent: type.spec,
      context,
      promptVars: {
        workDir: workspace?.workDir ?? rootSession.workDir,
        additionalDirs: rootDeps.additionalDirs ?? [],
        env: parts.env,
        skills: parts.skills,
        // An isolated subagent reads the AGENTS.md of its worktree.
        contextFiles: workspace
          ? parts.contextFiles.withProjectFolders([workspace.workDir])
          : parts.contextFiles,
      },
      // The session's one policy decides the subagent's calls too.
      toolset: new KimiToolset({ approval, hooks: parts.hooks, secrets, policy }),
      deps: {
        ...rootDeps,
        approval,
        // A subagent may talk to another model than the root: its tools follow that model.
        ...(parts.llm
          ? { modelCapabilities: parts.llm.capabilities, uploadVideo: videoUploaderOf(parts.llm.provider) }
          : {}),
        session: createSessionStore(
          {
            ...rootSession,
            dir: paths.dir,
            contextFile: paths.context,
            wireFile: paths.wire,
            stateFile: paths.state,
          },
          state.todos,
        ),
      },
      llm: parts.llm,
      llmNotSetMessage: 'No model is configured for the subagent.',
      loopControl: parts.loopControl,
      hooks: parts.hooks,
      // The session goal's budget covers its subagents (read now: the goal opens after the extensions).
      onStepTokens: (tokens) => parts.rootDeps.goalBudget?.addTokens(tokens),
    });
    return { soul, close: () => context.close() };
  } catch (error) {
    await context.close();
    throw error;
  }
}
