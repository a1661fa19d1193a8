import { homedir } from 'node:os';
import { OAuthChatProvider, refreshProviderAuth } from '../auth/oauth-chat-provider.js';
import type { LoadedConfig } from '../config/load-config.js';
import type { Config } from '../config/schema.js';
import { trustedFoldersFile } from '../config/trusted-folders.js';
import { parseHookConfigs } from '../hooks/config.js';
import { createHookEngine } from '../hooks/engine.js';
import { sandboxStatus } from '../policy/sandbox.js';
import { deleteSessionIfEmpty } from '../session/list.js';
import { goalCommand } from '../soul/goal/goal-command.js';
import { GoalParkedInjection } from '../soul/goal/goal-injection.js';
import { AfkReminder } from '../soul/injections/afk-reminder.js';
import { loopCommand } from '../soul/loop-command.js';
import { SlashCommandRegistry } from '../soul/slash-commands.js';
import type { LoopControl } from '../soul/soul-parts.js';
import { type CronClock, SYSTEM_CRON_CLOCK } from '../tools/cron/cron-scheduler.js';
import { plansDirIn } from '../tools/plan/plan-mode.js';
import { KimiToolset } from '../toolset/kimi-toolset.js';
import { AgentSessionImpl } from './agent-session-impl.js';
import { addLoginSecrets, collectSecrets } from './collect-secrets.js';
import { setUpExtensions } from './contributions.js';
import type { Extension } from './extension.js';
import { FirstRequestGate } from './first-request-gate.js';
import { OutOfTurnHub } from './out-of-turn-hub.js';
import { PlanModeState } from './plan-mode-state.js';
import { PlanModeSwitch } from './plan-mode-switch.js';
import { pruneInBackground } from './prune-checkpoints-in-background.js';
import { readRewindTurns, rewindCommand, SessionCheckpoints } from './rewind/index.js';
import { rootToolDeps } from './root-tool-deps.js';
import { type ApprovalModes, openSessionApproval } from './session-approval.js';
import { sessionCommands } from './session-commands.js';
import { openSessionCron } from './session-cron.js';
import {
  mergeAdditionalDirs,
  readSessionFiles,
  type SessionFiles,
  type SessionFilesOptions,
} from './session-files.js';
import { openSessionGoal } from './session-goal.js';
import { openSessionGuards } from './session-guards.js';
import { SessionModel } from './session-model.js';
import { type SandboxFlag, warnOfSandbox } from './session-sandbox.js';
import { SessionTitle } from './session-title.js';
import type { WarningSink } from './session-warning.js';
import { ShutdownList } from './shutdown-list.js';
import { assembleSoul } from './soul-assembly.js';
import { SwarmSlot } from './subagents/swarm-dispatch.js';
import { turnsLookForSecrets } from './turns-look-for-secrets.js';
import { WorkRoots } from './work-roots.js';
import { startingTrust, WorkspaceTrust } from './workspace-trust.js';

export interface CreateAgentSessionOptions extends SessionFilesOptions, ApprovalModes {
  /** kimi-ts's data folder (`~/.kimi-ts`). */
  home: string;
  /**
   * A fleet worker opening the session for a goal's next step: an active goal stays active (and
   * keeps what its turns saw) instead of coming back paused as on a resume.
   */
  goalGoesOn?: boolean | undefined;
  /** The clock scheduled prompts fire by (tests); the system clock by default. */
  cronClock?: CronClock | undefined;
  /** An already loaded config (tests, embedding); skips `configFile`/`inlineConfig`. */
  config?: LoadedConfig | undefined;
  modelAlias?: string | undefined;
  thinking?: boolean | undefined;
  maxStepsPerTurn?: number | undefined;
  maxRetriesPerStep?: number | undefined;
  /** `--skills-dir`: the one folder skills come from (besides `extra_skill_dirs` and plugins). */
  skillsDir?: string | undefined;
  /** `--max-ralph-iterations`: extra runs of each prompt in a Ralph loop (-1: until STOP). */
  maxRalphIterations?: number | undefined;
  /** `--add-dir`: more directories the agent may work in (persisted in the session). */
  addDirs?: readonly string[] | undefined;
  /**
   * The folders the session may work in at all (a fleet worker's `--work-root`): a work dir or an
   * added folder outside them is refused (WorkRootRefusal). None: anywhere.
   */
  workRoots?: WorkRoots | undefined;
  /** `--sandbox` (on: the config's mode, or workspace-write when it says off) or `--sandbox MODE`. */
  sandbox?: SandboxFlag;
  /** `--trust-workspace`: the work dir's own configuration (its allow rules) is in force. */
  trustWorkspace?: boolean | undefined;
  /** Config files the session loads besides the config (`--mcp-config-file`): protected and secret. */
  otherConfigFiles?: readonly string[] | undefined;
  /** `--mcp-config` values (and an ACP client's servers), which the MCP extension also reads. */
  inlineMcpConfigs?: readonly string[] | undefined;
  /** Extra pieces (background tasks, plan mode, MCP, subagents) that add tools, injections and services. */
  extensions?: readonly Extension[] | undefined;
  /** Where the session reports what goes wrong without stopping it (the CLI prints it on stderr). */
  onWarning?: WarningSink | undefined;
}

/**
 * The composition root: files → model → approval → hooks → extensions → soul → session, built whole.
 * Everything a front end needs comes back as one AgentSession.
 */
export async function createAgentSession(options: CreateAgentSessionOptions): Promise<AgentSessionImpl> {
  const { home, env } = options;
  const warn: WarningSink = options.onWarning ?? (() => {});
  const files = await readSessionFiles(options, warn);
  const { session, state, spec, context, skills, contextFiles } = files;
  const { config } = files.loaded;
  const shutdown = shutdownOf(files);
  try {
    // First, so that the tokens of a login the model uses become secrets as they are loaded.
    const secrets = collectSecrets(config, env);
    await addLoginSecrets(secrets, config, home);
    const model = await SessionModel.open({
      config,
      env,
      home,
      secrets,
      sessionId: session.id,
      stateFile: session.stateFile,
      thinking: options.thinking,
      configSource: files.loaded.source,
      // A fleet job's prompt (whoever can write Redis) does not change the worker's config.
      configNotSaved: options.workRoots ? "a fleet job does not change its worker's config" : undefined,
      alias: options.modelAlias,
      savedAlias: state.model_alias,
      savedThinking: state.model_thinking,
    });
    const approval = openSessionApproval({ ...files, config, modes: options, warn });
    const additionalDirs = await mergeAdditionalDirs(
      session,
      state.additional_dirs,
      options.addDirs ?? [],
      options.workRoots,
    );
    const trust = await openWorkspaceTrust(session.workDir, options, config, warn);
    // Before the policy, which reads it from its construction; the plan-mode extension drives it.
    const planModeState = new PlanModeState(
      { plan_mode: state.plan_mode, plan_session_id: state.plan_session_id, plan_slug: state.plan_slug },
      plansDirIn(home),
      session.stateFile,
    );
    const guards = await openSessionGuards({
      files,
      config,
      env,
      home,
      approval,
      additionalDirs,
      secrets,
      trust,
      otherConfigFiles: options.otherConfigFiles ?? [],
      inlineMcpConfigs: options.inlineMcpConfigs ?? [],
      sandbox: options.sandbox,
      planMode: planModeState,
      sandboxBound: options.workRoots?.sandboxBound(),
      trustChangeRefused: options.workRoots ? WorkRoots.JOB_COMMAND_REFUSAL : undefined,
    });
    // Print mode cannot ask: say what the untrusted workspace holds back.
    const { folder, enables: held, allowRules, trustedParent } = trust;
    if (options.runtimeAfk && !trust.trusted && held.length > 0)
      warn({ kind: 'workspace-untrusted', folder, held, allowRules, trustedParent });
    const { policy, commandSandbox } = guards;
    // Among the last to run (the list runs last added first): the checkpoints' git at close still
    // skips PATH entries in the session's folders.
    shutdown.add(async () => guards.forgetWritableFolders());
    if (commandSandbox) shutdown.add(async () => commandSandbox.dispose());
    warnOfSandbox(guards, [session.workDir, ...additionalDirs], warn);
    const hookConfigs = parseHookConfigs(config.hooks);
    const hooks = createHookEngine({
      hooks: hookConfigs,
      sessionId: session.id,
      workDir: session.workDir,
      env: guards.childEnv,
      // Triggers from a run say where their events go; the rest (none runs between turns) go to
      // the root turn's wire, while one runs.
      onEvent: (event) => toolset.runScope.wire?.send(event),
      refuseCommand: guards.refuseHookCommand,
      onCommandRefused: (message) => warn({ kind: 'hook-skipped', message }),
    });
    shutdown.add(() => hooks.drain(AbortSignal.timeout(5000)));
    const toolset = new KimiToolset({ approval, hooks, secrets, policy });
    const deps = {
      ...rootToolDeps({ config, env: guards.commandEnv, session, state, additionalDirs, model }),
      secrets,
      commandSandbox,
      policy,
    };
    const loopControl = loopControlOf(options, config);
    const outOfTurn = new OutOfTurnHub();
    const base = {
      session,
      config,
      env,
      context,
      toolset,
      approval,
      hooks,
      model,
      outOfTurn,
      shutdown,
      secrets,
    };
    const swarmSlot = new SwarmSlot();
    const services = {
      ...base,
      swarmSlot,
      state,
      home,
      agentSpec: spec,
      skills,
      contextFiles,
      rootDeps: deps,
      loopControl,
      warn,
      workspaceTrust: trust,
      planModeState,
      mcpConfig: guards.mcpConfig,
    };
    const contributions = await setUpExtensions(options.extensions ?? [], services, deps, shutdown);
    const planMode = new PlanModeSwitch(contributions.planMode, session);
    const title = new SessionTitle(session.stateFile, state.custom_title);
    const slashCommands = new SlashCommandRegistry();
    const afk = config.skip_afk_prompt_injection ? [] : [new AfkReminder(() => approval.afk)];
    // Checkpoint git and pruning wait until the first model request has gone out.
    const backgroundWork = new FirstRequestGate();
    const checkpoints = config.checkpoints.enabled
      ? await SessionCheckpoints.open({
          deferredUntil: backgroundWork,
          home,
          sessionId: session.id,
          sessionDir: session.dir,
          workDir: session.workDir,
          additionalDirs,
          maxFileBytes: Math.round(config.checkpoints.max_file_mib * 1024 * 1024),
          redact: (text) => secrets.redact(text),
          warn: (message) => warn({ kind: 'checkpoints-failed', message }),
        })
      : null;
    if (config.checkpoints.enabled)
      pruneInBackground(home, config.checkpoints, backgroundWork, shutdown, warn);
    if (checkpoints) {
      toolset.setSideEffectGate((signal) => checkpoints.untilRecorded(signal));
      // Records still under way finish before the session folder is released.
      shutdown.add(() => checkpoints.flush());
      shutdown.onAbandon(() => checkpoints.abandon());
    }
    const goal = await openSessionGoal(session.dir, toolset, session.wireFile, {
      keepActive: options.goalGoesOn === true,
    });
    shutdown.add(() => goal.flush());
    // The goal's budget covers its tree: subagents count their tokens against it.
    deps.goalBudget = goal;
    const cronClock = options.cronClock ?? SYSTEM_CRON_CLOCK;
    const cron = await openSessionCron(session.dir, cronClock);
    deps.cronBook = cron;
    shutdown.add(() => cron.flush());
    const { soul, systemPrompt, skippedTools } = await assembleSoul({
      role: 'root',
      agent: spec,
      context,
      promptVars: { workDir: session.workDir, additionalDirs, env, skills, contextFiles },
      toolset,
      deps,
      llm: model.llm,
      llmNotSetMessage: model.llmNotSetMessage || undefined,
      loopControl,
      hooks,
      afterToolsLoaded: () => contributions.afterToolsLoaded(),
      root: {
        injections: [...afk, new GoalParkedInjection(goal), ...contributions.injections],
        notifications: contributions.llmNotifications,
        planMode: () => planMode.isActive,
        slashCommands,
        beforeFirstStep: (signal, run) => contributions.beforeFirstStep(signal, run),
        autoTitle: (text) => title.generate(secrets.redact(text)),
        refreshAuth: refreshAuthOf(model),
        workTree: turnsLookForSecrets(checkpoints ?? undefined, commandSandbox),
        onModelResponse: backgroundWork.responseStarted,
        goal,
      },
    });
    model.onSwitch((llm) => soul.switchLLM(llm));
    const commands = sessionCommands({
      session,
      home,
      context,
      approval,
      model,
      planMode,
      title,
      systemPrompt,
      skills,
      contextFiles,
      policy,
      additionalDirs,
      hookConfigs,
      extensionCommands: contributions.slashCommands,
      sandbox: sandboxStatus(guards.sandboxState),
      workRoots: options.workRoots,
    });
    for (const command of [...commands, guards.permissions, goalCommand(goal), loopCommand(cron)])
      slashCommands.add(command);
    if (checkpoints)
      slashCommands.add(rewindCommand({ checkpoints, sessionDir: session.dir, approval, policy }));
    const agentSession = new AgentSessionImpl({
      rewindTurns: checkpoints ? () => readRewindTurns(checkpoints, session.dir) : undefined,
      ...base,
      soul,
      goal,
      cron: { book: cron, clock: cronClock },
      slashCommands,
      planMode,
      title,
      contributions,
      skippedTools,
      sandbox: sandboxStatus(guards.sandboxState),
      workspaceTrust: trust,
      swarmSlot,
    });
    // Kimi CLI's SessionStart: once the session is made, awaited; its matcher sees how it began.
    const source = context.history.length > 0 ? 'resume' : 'startup';
    if (hooks.hasHooksFor('SessionStart'))
      await hooks.trigger('SessionStart', { target: source, input: { source } });
    // Kimi CLI's SessionEnd: first thing on close, for a session that started; at most 5 s.
    shutdown.add(async () => {
      if (!hooks.hasHooksFor('SessionEnd')) return;
      const signal = AbortSignal.timeout(5000);
      await hooks.trigger('SessionEnd', { target: 'exit', input: { reason: 'exit' }, signal });
    });
    return agentSession;
  } catch (error) {
    // A session that failed half-way leaves nothing open: files, background work, MCP clients.
    await shutdown.runAll();
    throw error;
  }
}

/** The work dir's trust at start: the flag, the trust record, or `[trust] folders` of the config. */
async function openWorkspaceTrust(
  workDir: string,
  options: CreateAgentSessionOptions,
  config: Config,
  warn: WarningSink,
): Promise<WorkspaceTrust> {
  const start = await startingTrust({
    workDir,
    home: options.home,
    userHome: options.env.HOME?.trim() || homedir(),
    config,
    flag: options.trustWorkspace,
  });
  if (start.recordProblem) warn({ kind: 'trust-record-unreadable', message: start.recordProblem });
  const { folder, source, declined, trustedParent, trustedFolders } = start;
  return new WorkspaceTrust(
    folder,
    source,
    trustedFoldersFile(options.home),
    declined,
    trustedParent,
    trustedFolders,
  );
}

function loopControlOf(options: CreateAgentSessionOptions, config: Config): LoopControl {
  return {
    maxStepsPerTurn: options.maxStepsPerTurn ?? config.loop_control.max_steps_per_turn,
    maxRetriesPerStep: options.maxRetriesPerStep ?? config.loop_control.max_retries_per_step,
    maxRalphIterations: options.maxRalphIterations ?? config.loop_control.max_ralph_iterations,
    reservedContextSize: config.loop_control.reserved_context_size,
    compactionTriggerRatio: config.loop_control.compaction_trigger_ratio,
    stallTimeoutMs: config.loop_control.stall_timeout_s * 1000,
  };
}

/** Forces an OAuth refresh after a 401, for `kimi-ts login` providers. */
function refreshAuthOf(model: SessionModel): (() => Promise<void>) | undefined {
  return model.llm?.provider instanceof OAuthChatProvider
    ? () => refreshProviderAuth(model.llm?.provider)
    : undefined;
}

/** What closing the session does, whatever it got to open: last added, first run. */
function shutdownOf(files: SessionFiles): ShutdownList {
  const shutdown = new ShutdownList();
  // Added first, so it runs last: the session folder is released once everything else is closed.
  shutdown.add(() => files.lock.release());
  shutdown.add(async () => {
    await files.context.close();
    // A session nobody said anything in is not worth keeping (as Kimi CLI does): it would only
    // crowd the list and what `--continue` finds.
    await deleteSessionIfEmpty(files.session).catch(() => false);
  });
  return shutdown;
}
