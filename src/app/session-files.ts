import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { type LoadedConfig, loadConfig } from '../config/load-config.js';
import { unknownModelAlias } from '../config/resolve-model.js';
import { continueSession } from '../session/list.js';
import { recordLastSession } from '../session/metadata.js';
import { createSession, openSession, type Session, SessionError } from '../session/session.js';
import { isFullSessionUuid, matchSessionId, sessionIdProblem } from '../session/session-id-match.js';
import { lockSession, type SessionLock } from '../session/session-lock.js';
import { readSessionState, type SessionState, updateSessionState } from '../session/state.js';
import { workDirKey } from '../session/work-dir-key.js';
import { Context } from '../soul/context/context.js';
import { ProjectApprovals } from '../toolset/approval/project-approvals.js';
import { checkAdditionalDir } from './additional-dirs.js';
import { type AgentSpec, DEFAULT_AGENT_FILE, loadAgentSpec } from './agent-spec.js';
import { ContextFileGuard } from './context-file-guard.js';
import { pluginsDir } from './plugins/plugin-manager.js';
import { findGitRoot } from './project-root.js';
import type { WarningSink } from './session-warning.js';
import { errorText } from './session-warning.js';
import { discoverSkills, ownSkillFolders, type Skill } from './skills.js';
import { UsageError } from './usage-error.js';
import type { WorkRoots } from './work-roots.js';

export interface SessionFilesOptions {
  workDir: string;
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  configFile?: string | undefined;
  inlineConfig?: string | undefined;
  config?: LoadedConfig | undefined;
  sessionId?: string | undefined;
  continueLast?: boolean | undefined;
  agentFile?: string | undefined;
  skillsDir?: string | undefined;
  /** Config files the session loads besides the config (`--mcp-config-file`): secret. */
  otherConfigFiles?: readonly string[] | undefined;
  /** `--model`: an alias the config does not have stops here, before a session is made. */
  modelAlias?: string | undefined;
  /**
   * A fleet worker holds the session by its turn job's lease, which fences every write of the
   * context: its lock file may be replaced by another worker's (the one that took the turn over
   * from a paused worker), never by an interactive process, and never replaces one of those.
   */
  leased?: boolean | undefined;
}

/** What a session starts from, read from disk. The context is open: whoever gets this closes it. */
export interface SessionFiles {
  loaded: LoadedConfig;
  session: Session;
  /** This process's hold on the session folder; released last when the session closes. */
  lock: SessionLock;
  state: SessionState;
  spec: AgentSpec;
  context: Context;
  projectApprovals: ProjectApprovals;
  skills: readonly Skill[];
  /** What AGENTS.md and skill files may be read into the model's context. */
  contextFiles: ContextFileGuard;
}

/**
 * Reads the config, picks the session and reads its files, the agent spec, the project's kept
 * approvals and the skills. Independent reads run together; the agent spec's own errors still
 * surface after the config's, and nothing stays open when one of them fails.
 */
export async function readSessionFiles(
  options: SessionFilesOptions,
  warn: WarningSink,
): Promise<SessionFiles> {
  const { home, env } = options;
  const specLoading = loadAgentSpec(options.agentFile ?? DEFAULT_AGENT_FILE);
  specLoading.catch(() => {});
  const loaded =
    options.config ??
    (await loadConfig({ configFile: options.configFile, inlineConfig: options.inlineConfig, env, home }));
  const { config } = loaded;
  const badAlias = unknownModelAlias(config, options.modelAlias);
  if (badAlias !== null) throw new UsageError(badAlias, '--model');
  const session = await pickSession(options);
  // One process per session: a second one gets a clear error instead of interleaving the files.
  const lock: SessionLock = await lockSession(session.id, session.dir, { leased: options.leased });
  const userHome = env.HOME || homedir();
  // Installed plugins may bring skills too; theirs come last.
  const extraDirs = [
    ...config.extra_skill_dirs.map((dir) => resolve(userHome, dir.replace(/^~(?=$|[\\/])/, userHome))),
    pluginsDir(userHome),
  ];
  const skillsDir = options.skillsDir ? resolve(options.workDir, options.skillsDir) : undefined;
  const contextFiles = new ContextFileGuard(
    {
      homes: {
        userHome,
        kimiHome: home,
        configFiles: [
          ...(loaded.source.kind === 'inline' ? [] : [loaded.source.path]),
          ...(options.otherConfigFiles ?? []),
        ],
      },
      projectFolders: [
        session.workDir,
        (await findGitRoot(session.workDir)) ?? session.workDir,
        ...(skillsDir ? [skillsDir] : []),
      ],
      ownFolders: [...ownSkillFolders(userHome, home), ...extraDirs],
    },
    (file, reason) => warn({ kind: 'context-file-refused', file, reason }),
  );
  const skillsFound = discoverSkills({
    workDir: session.workDir,
    userHome,
    kimiTsHome: home,
    extraDirs,
    mergeAll: config.merge_all_available_skills,
    skillsDir,
    guard: contextFiles,
  }).catch((error: unknown) => {
    // Skills are extras: a folder that cannot be read must not stop the session.
    warn({ kind: 'skills-unreadable', message: errorText(error) });
    return [];
  });
  const [recorded, stateRead, specRead, restored, approvalsRead, skillsRead] = await Promise.allSettled([
    recordLastSession(home, session.workDir, session.id),
    readSessionState(session.stateFile),
    specLoading,
    Context.restore(session.contextFile),
    // Approvals the user chose to keep for this project live in kimi-ts's folder, never in the repository.
    ProjectApprovals.load(join(home, 'projects', workDirKey(session.workDir), 'approvals.json')),
    skillsFound,
  ]);
  const anyFailed = [recorded, stateRead, specRead, approvalsRead, skillsRead].some(
    (o) => o.status === 'rejected',
  );
  // The context keeps its file open: close it before an error of the others goes up.
  if (anyFailed && restored.status === 'fulfilled') await restored.value.close().catch(() => undefined);
  if (anyFailed || restored.status === 'rejected') await lock.release();
  settledValue(recorded);
  return {
    loaded,
    session,
    lock,
    state: settledValue(stateRead),
    spec: settledValue(specRead),
    context: settledValue(restored),
    projectApprovals: settledValue(approvalsRead),
    skills: settledValue(skillsRead),
    contextFiles,
  };
}

/** The value of a settled promise, or its error thrown. */
function settledValue<T>(outcome: PromiseSettledResult<T>): T {
  if (outcome.status === 'rejected') throw outcome.reason;
  return outcome.value;
}

async function pickSession(options: SessionFilesOptions): Promise<Session> {
  const where = { home: options.home, workDir: options.workDir };
  if (options.continueLast) {
    return continueSession(where).catch((error: unknown) => {
      throw error instanceof SessionError ? new UsageError(error.message, '--continue') : error;
    });
  }
  if (options.sessionId) {
    const match = await matchSessionId(where, options.sessionId);
    if (match.kind === 'found') return openSession({ ...where, id: match.id });
    // A session is made with a chosen id only for a full UUID: a short or mistyped id is an error,
    // never a new session the person did not mean to start.
    if (isFullSessionUuid(options.sessionId)) return createSession({ ...where, id: options.sessionId });
    const problem = sessionIdProblem(match, where.workDir) ?? '';
    const hint = match.kind === 'none' ? ' A new session with a chosen id needs a full UUID.' : '';
    throw new UsageError(`${problem}${hint}`, '--session');
  }
  return createSession(where);
}

/** A session that would work outside its worker's `--work-root`: it is not opened. */
export class WorkRootRefusal extends Error {
  override readonly name = 'WorkRootRefusal';
}

/** Adds `--add-dir` folders (existing, outside the work dir) to the session's list and saves it. */
export async function mergeAdditionalDirs(
  session: Session,
  saved: readonly string[],
  added: readonly string[],
  /**
   * The folders the session may work in at all (a fleet worker's `--work-root`): the work dir and
   * every folder, the saved ones too (a fleet's store wrote those), must lie inside. None: anywhere.
   */
  roots?: WorkRoots,
): Promise<string[]> {
  let dirs = [...saved];
  if (roots) {
    const workDir = roots.refusal(session.workDir, 'The work dir');
    if (workDir) throw new WorkRootRefusal(workDir);
    // Kept by the real paths checked: the store's names may lead through links a command re-points.
    dirs = saved.map((dir) => {
      const checked = roots.checked(dir, 'The folder added to the session');
      if ('refusal' in checked) throw new WorkRootRefusal(checked.refusal);
      return checked.real;
    });
  }
  for (const raw of added) {
    const checked = checkAdditionalDir(session.workDir, raw, roots);
    if (!checked.ok) throw new UsageError(`--add-dir ${checked.problem}`);
    if (!checked.inside && !dirs.includes(checked.dir)) dirs.push(checked.dir);
  }
  if (dirs.length !== saved.length) {
    await updateSessionState(session.stateFile, (s) => ({ ...s, additional_dirs: dirs }));
  }
  return dirs;
}
