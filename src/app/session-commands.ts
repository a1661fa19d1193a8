import type { HookConfig } from '../hooks/config.js';
import type { SandboxStatus } from '../policy/sandbox.js';
import type { SessionPolicy } from '../policy/session-policy.js';
import type { Session } from '../session/session.js';
import { updateSessionState } from '../session/state.js';
import type { Context } from '../soul/context/context.js';
import { builtinSlashCommands, type SlashCommand } from '../soul/slash-commands.js';
import type { Approval } from '../toolset/approval/approval.js';
import { addDirCommand } from './additional-dirs.js';
import type { ContextFileGuard } from './context-file-guard.js';
import { conversationCommands } from './export-import-commands.js';
import { hooksCommand, statusCommand, versionCommand } from './info-commands.js';
import type { PlanModeSwitch } from './plan-mode-switch.js';
import type { SessionModel } from './session-model.js';
import type { SessionTitle } from './session-title.js';
import { type Skill, skillCommands } from './skills.js';
import { WorkRoots } from './work-roots.js';

export interface SessionCommandParts {
  session: Session;
  home: string;
  context: Context;
  approval: Approval;
  model: SessionModel;
  planMode: PlanModeSwitch;
  title: SessionTitle;
  systemPrompt: string;
  /** The session's `--add-dir` folders (shared with the tools, which see what `/add-dir` adds). */
  additionalDirs: string[];
  hookConfigs: readonly HookConfig[];
  /** Commands the extensions brought, then the skills'. */
  extensionCommands: readonly SlashCommand[];
  skills: readonly Skill[];
  /** What skill files (and `/import`ed files) may be read into the context. */
  contextFiles: ContextFileGuard;
  /** The session's policy: `/export` writes no secret or protected file. */
  policy: SessionPolicy;
  /** The command sandbox's state, for `/status`. */
  sandbox: SandboxStatus | null;
  /** The folders `/add-dir` may add (a fleet worker's `--work-root`); none: anywhere. */
  workRoots?: WorkRoots | undefined;
}

/** The slash commands of a root session: the soul's built-in ones, the app's, the extensions', the skills'. */
export function sessionCommands(parts: SessionCommandParts): SlashCommand[] {
  const { session, approval, planMode, title } = parts;
  return [
    ...builtinSlashCommands({
      setYolo: (enabled) => approval.setYolo(enabled),
      isYolo: () => approval.yolo,
      setAfk: (enabled) => approval.setAfk(enabled),
      isAfk: () => approval.afk,
      title: () => title.value,
      setTitle: (text) => title.set(text),
      setPlanMode: (enabled) => planMode.set(enabled),
      isPlanMode: () => planMode.isActive,
      readPlan: () => planMode.readPlan(),
      clearPlan: () => planMode.clearPlan(),
      systemPrompt: parts.systemPrompt,
      workDir: session.workDir,
      readProjectFile: (path) => parts.contextFiles.read(path, 'project'),
      models: parts.model,
    }),
    addDirCommand({
      workDir: session.workDir,
      dirs: parts.additionalDirs,
      roots: parts.workRoots,
      save: async (dirs) => {
        await updateSessionState(session.stateFile, (s) => ({ ...s, additional_dirs: [...dirs] }));
      },
    }),
    ...conversationCommands({
      session,
      home: parts.home,
      title: () => title.value,
      filesRefused: parts.workRoots ? WorkRoots.JOB_COMMAND_REFUSAL : undefined,
      contextFiles: parts.contextFiles,
      exportChecks: {
        homes: parts.policy.homes,
        protectedReason: (target) => parts.policy.protectedReason(target),
      },
    }),
    statusCommand({
      sessionId: session.id,
      context: parts.context,
      approval,
      llm: () => parts.model.llm,
      modelAlias: () => parts.model.alias,
      title: () => title.value,
      planMode: () => planMode.isActive,
      sandbox: parts.sandbox,
    }),
    hooksCommand(parts.hookConfigs),
    versionCommand,
    ...parts.extensionCommands,
    ...skillCommands(parts.skills, parts.contextFiles),
  ];
}
