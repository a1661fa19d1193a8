import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { type LoadedConfig, loadConfig } from '../config/load-config.js';
import { type ResolvedModel, resolveModel } from '../config/resolve-model.js';
import type { Config } from '../config/schema.js';
import { parseHookConfigs } from '../hooks/config.js';
import { createHookEngine } from '../hooks/engine.js';
import type { ChatProvider } from '../kosong/provider.js';
import { createChatProvider } from '../kosong/providers/index.js';
import { continueSession } from '../session/list.js';
import { recordLastSession } from '../session/metadata.js';
import { createSession, openSession, type Session } from '../session/session.js';
import { readSessionState, updateSessionState } from '../session/state.js';
import { workDirKey } from '../session/work-dir-key.js';
import type { ModelSwitcher } from '../soul/agent-session.js';
import { Context } from '../soul/context/context.js';
import { DenwaRenji } from '../soul/dmail.js';
import { AfkReminder } from '../soul/injections/afk-reminder.js';
import { builtinSlashCommands, SlashCommandRegistry } from '../soul/slash-commands.js';
import { Soul } from '../soul/soul.js';
import type { LoopControl, SoulLLM } from '../soul/soul-parts.js';
import { BUILTIN_TOOL_MODULES } from '../tools/builtin-modules.js';
import { Approval } from '../toolset/approval.js';
import type { ToolDependencyTable } from '../toolset/dependencies.js';
import { KimiToolset } from '../toolset/kimi-toolset.js';
import { ProjectApprovals } from '../toolset/project-approvals.js';
import { currentWire } from '../wire/current-wire.js';
import { addDirCommand, checkAdditionalDir } from './additional-dirs.js';
import { AgentSessionImpl } from './agent-session-impl.js';
import { DEFAULT_AGENT_FILE, loadAgentSpec } from './agent-spec.js';
import { conversationCommands } from './export-import-commands.js';
import type { Extension } from './extension.js';
import { hooksCommand, statusCommand, versionCommand } from './info-commands.js';
import { pluginsDir } from './plugins/plugin-manager.js';
import { loadScriptedScripts } from './scripted-scripts.js';
import { createSessionPolicy } from './session-policy.js';
import { createSessionStore } from './session-store.js';
import { discoverSkills, skillCommands } from './skills.js';
import { renderSystemPrompt } from './system-prompt.js';
import { UsageError } from './usage-error.js';
import { videoUploaderOf } from './video-uploader.js';

export interface CreateAgentSessionOptions {
  workDir: string;
  /** kimi-ts's data folder (`~/.kimi-ts`). */
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  configFile?: string | undefined;
  inlineConfig?: string | undefined;
  /** An already loaded config (tests, embedding); skips `configFile`/`inlineConfig`. */
  config?: LoadedConfig | undefined;
  modelAlias?: string | undefined;
  sessionId?: string | undefined;
  continueLast?: boolean | undefined;
  agentFile?: string | undefined;
  yolo?: boolean | undefined;
  /** Persisted afk (`--afk`). */
  afk?: boolean | undefined;
  /** Invocation-only afk (print mode). */
  runtimeAfk?: boolean | undefined;
  thinking?: boolean | undefined;
  maxStepsPerTurn?: number | undefined;
  maxRetriesPerStep?: number | undefined;
  /** `--skills-dir`: the one folder skills come from (besides `extra_skill_dirs` and plugins). */
  skillsDir?: string | undefined;
  /** `--max-ralph-iterations`: extra runs of each prompt in a Ralph loop (-1: until STOP). */
  maxRalphIterations?: number | undefined;
  /** `--add-dir`: more directories the agent may work in (persisted in the session). */
  addDirs?: readonly string[] | undefined;
  /** Extra pieces (background tasks, plan mode, MCP, subagents) that add tools, injections and services. */
  extensions?: readonly Extension[] | undefined;
}

/**
 * The composition root: config → model → session → context → approval → hooks → tools → soul.
 * Everything a front end needs comes back as one AgentSession.
 */
export async function createAgentSession(options: CreateAgentSessionOptions): Promise<AgentSessionImpl> {
  const { home, env } = options;
  // Independent reads run together; the agent spec's own errors still surface after the config's.
  const specLoading = loadAgentSpec(options.agentFile ?? DEFAULT_AGENT_FILE);
  specLoading.catch(() => {});
  const loaded =
    options.config ??
    (await loadConfig({ configFile: options.configFile, inlineConfig: options.inlineConfig, env, home }));
  const config = loaded.config;
  const session = await pickSession(options);
  const userHome = env.HOME || homedir();
  const skillsFound = discoverSkills({
    workDir: session.workDir,
    userHome,
    kimiTsHome: home,
    // Installed plugins may bring skills too; theirs come last.
    extraDirs: [
      ...config.extra_skill_dirs.map((dir) => resolve(userHome, dir.replace(/^~(?=$|[\\/])/, userHome))),
      pluginsDir(userHome),
    ],
    mergeAll: config.merge_all_available_skills,
    skillsDir: options.skillsDir ? resolve(options.workDir, options.skillsDir) : undefined,
  }).catch((error: unknown) => {
    // Skills are extras: a folder that cannot be read must not stop the session.
    process.stderr.write(
      `Skills could not be loaded: ${error instanceof Error ? error.message : String(error)}\n`,
    );
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
  settledValue(recorded);
  const state = settledValue(stateRead);
  const spec = settledValue(specRead);
  const context = settledValue(restored);
  const projectApprovals = settledValue(approvalsRead);
  const skills = settledValue(skillsRead);
  // `--model` first, then the model this session was switched to (`/model`), then the default.
  const savedAlias =
    state.model_alias !== null && Object.hasOwn(config.models, state.model_alias)
      ? state.model_alias
      : undefined;
  const resolved = resolveModel(config, { modelAlias: options.modelAlias ?? savedAlias, env, home });
  let built: AgentSessionImpl | undefined;
  try {
    let systemPrompt = context.systemPrompt;
    if (systemPrompt === null) {
      systemPrompt = await renderSystemPrompt(
        spec.systemPromptPath,
        { workDir: session.workDir, additionalDirs: state.additional_dirs, env, skills },
        spec.systemPromptArgs,
      );
      await context.writeSystemPrompt(systemPrompt);
    }

    const approval = new Approval({
      projectApprovals,
      onPersistError: (error) =>
        process.stderr.write(`Could not save the project approval: ${(error as Error).message}\n`),
      state: state.approval,
      onChange: (approvalState) => {
        void updateSessionState(session.stateFile, (s) => ({
          ...s,
          approval: { ...s.approval, ...approvalState },
        }));
      },
    });
    if (options.yolo || config.default_yolo) approval.setYolo(true);
    if (options.afk) approval.setAfk(true);
    if (options.runtimeAfk) approval.setRuntimeAfk(true);

    const hookConfigs = parseHookConfigs(config.hooks);
    const hooks = createHookEngine({
      hooks: hookConfigs,
      sessionId: session.id,
      workDir: session.workDir,
      onEvent: (event) => currentWire()?.send(event),
    });

    const provider =
      resolved.status === 'ready' ? await buildProvider(resolved, config, options, session.id) : null;
    const capabilities = new Set<string>(resolved.status === 'ready' ? resolved.capabilities : []);
    let llm: SoulLLM | null = provider
      ? { provider, maxContextSize: resolved.status === 'ready' ? resolved.maxContextSize : 0, capabilities }
      : null;
    let currentAlias = resolved.status === 'ready' ? resolved.modelAlias : null;

    const additionalDirs = await mergeAdditionalDirs(session, state.additional_dirs, options.addDirs ?? []);
    const { policy, command: permissions } = await createSessionPolicy({
      ...{ workDir: session.workDir, additionalDirs, home, env, config, approval, projectApprovals },
      configLabel: loaded.source.kind === 'inline' ? '--config' : loaded.source.path,
    });
    const toolset = new KimiToolset({ approval, hooks, policy });
    const denwaRenji = new DenwaRenji();
    const sessionStore = createSessionStore(session, state.todos);
    const deps: ToolDependencyTable = {
      workDir: session.workDir,
      descriptionVars: { ...env, KIMI_WORK_DIR: session.workDir },
      additionalDirs,
      policy,
      session: sessionStore,
      modelCapabilities: capabilities,
      uploadVideo: videoUploaderOf(provider),
      webServices: {
        search: serviceOf(config.services?.moonshot_search),
        fetch: serviceOf(config.services?.moonshot_fetch),
      },
      backgroundConfig: {
        maxRunningTasks: config.background.max_running_tasks,
        keepAliveOnExit: config.background.keep_alive_on_exit,
        agentTaskTimeoutS: config.background.agent_task_timeout_s,
        killGracePeriodMs: config.background.kill_grace_period_ms,
        notificationTailLines: config.background.notification_tail_lines,
        notificationTailChars: config.background.notification_tail_chars,
      },
      role: 'root',
      denwaRenji,
      processEnv: env,
    };

    const loopControl: LoopControl = {
      maxStepsPerTurn: options.maxStepsPerTurn ?? config.loop_control.max_steps_per_turn,
      maxRetriesPerStep: options.maxRetriesPerStep ?? config.loop_control.max_retries_per_step,
      maxRalphIterations: options.maxRalphIterations ?? config.loop_control.max_ralph_iterations,
      reservedContextSize: config.loop_control.reserved_context_size,
      compactionTriggerRatio: config.loop_control.compaction_trigger_ratio,
    };

    const impl = new AgentSessionImpl({
      session,
      config,
      context,
      toolset,
      approval,
      hooks,
      env,
      llmNotSetMessage: resolved.status === 'ready' ? '' : resolved.message,
    });

    built = impl;

    if (!config.skip_afk_prompt_injection) impl.addInjection(new AfkReminder(() => approval.afk));

    // Extensions contribute dependencies, injections, notification sources and shutdown work.
    const extensionContext = {
      session,
      config,
      deps,
      toolset,
      approval,
      hooks,
      env,
      home,
      agentSpec: spec,
      skills,
      host: impl,
      state,
      currentLLM: () => llm,
      loopControl,
      llmForAlias: async (alias: string): Promise<SoulLLM | null> => {
        const other = resolveModel(config, { modelAlias: alias, env, home });
        if (other.status !== 'ready') return null;
        return {
          provider: await buildProvider(other, config, options, session.id),
          maxContextSize: other.maxContextSize,
          capabilities: new Set<string>(other.capabilities),
        };
      },
    };
    for (const extension of options.extensions ?? []) await extension.setup(extensionContext);

    const loadedTools = await toolset.loadTools(spec.tools, deps, {
      baseDir: dirname(spec.file),
      builtinModules: BUILTIN_TOOL_MODULES,
    });
    impl.skippedTools = loadedTools.skipped.map((s) => s.spec);
    for (const extension of options.extensions ?? []) await extension.afterToolsLoaded?.(extensionContext);

    const slashCommands = new SlashCommandRegistry();
    const soul = new Soul({
      llm,
      llmNotSetMessage: resolved.status === 'ready' ? undefined : resolved.message,
      context,
      toolset,
      systemPrompt,
      loopControl,
      hooks,
      denwaRenji,
      isRoot: true,
      injections: impl.injections,
      notifications: impl.llmNotifications,
      planMode: () => impl.planMode,
      hasDMailTool: toolset.find('SendDMail') !== undefined,
      slashCommands,
      beforeFirstStep: (signal) => impl.beforeFirstStep(signal),
      autoTitle: async (title) => {
        if (impl.title) return;
        impl.title = title;
        await updateSessionState(session.stateFile, (s) =>
          s.custom_title ? s : { ...s, custom_title: title, title_generated: true },
        );
      },
    });
    const models: ModelSwitcher = {
      list: () =>
        Object.entries(config.models).map(([alias, model]) => ({
          alias,
          model: model.model,
          provider: model.provider,
          current: alias === currentAlias,
        })),
      select: async (alias) => {
        if (!Object.hasOwn(config.models, alias)) {
          const known = Object.keys(config.models).join(', ') || 'none';
          throw new Error(`No model "${alias}" in the config (models: ${known}).`);
        }
        const chosen = resolveModel(config, { modelAlias: alias, env, home });
        if (chosen.status !== 'ready') throw new Error(chosen.message);
        const chosenProvider = await buildProvider(chosen, config, options, session.id);
        // The tools hold this set: they see what the new model accepts (images, video).
        capabilities.clear();
        for (const capability of chosen.capabilities) capabilities.add(capability);
        llm = { provider: chosenProvider, maxContextSize: chosen.maxContextSize, capabilities };
        soul.switchLLM(llm);
        currentAlias = alias;
        impl.markLLMReady();
        await updateSessionState(session.stateFile, (s) => ({ ...s, model_alias: alias }));
      },
    };
    impl.setModelSwitcher(models);
    for (const command of builtinSlashCommands({
      setYolo: (enabled) => approval.setYolo(enabled),
      isYolo: () => approval.yolo,
      setAfk: (enabled) => approval.setAfk(enabled),
      isAfk: () => approval.afk,
      title: () => impl.title,
      setTitle: async (title) => {
        impl.title = title;
        await updateSessionState(session.stateFile, (s) => ({ ...s, custom_title: title }));
      },
      setPlanMode: (enabled) => impl.setPlanMode(enabled),
      isPlanMode: () => impl.planMode,
      readPlan: () => impl.readPlan(),
      clearPlan: () => impl.clearPlan(),
      systemPrompt,
      workDir: session.workDir,
      models,
    })) {
      slashCommands.add(command);
    }
    slashCommands.add(
      addDirCommand({
        workDir: session.workDir,
        dirs: additionalDirs,
        save: async (dirs) => {
          await updateSessionState(session.stateFile, (s) => ({ ...s, additional_dirs: [...dirs] }));
        },
      }),
    );
    for (const command of conversationCommands({ session, home, title: () => impl.title })) {
      slashCommands.add(command);
    }
    slashCommands.add(permissions);
    slashCommands.add(
      statusCommand({
        sessionId: session.id,
        context,
        approval,
        llm: () => llm,
        modelAlias: () => currentAlias,
        title: () => impl.title,
        planMode: () => impl.planMode,
      }),
    );
    slashCommands.add(hooksCommand(hookConfigs));
    slashCommands.add(versionCommand);
    for (const command of impl.extensionCommands) slashCommands.add(command);
    for (const command of skillCommands(skills)) slashCommands.add(command);
    impl.attachSoul(soul, slashCommands);
    impl.title = state.custom_title;
    return impl;
  } catch (error) {
    // A session that failed half-way leaves nothing open: files, background work, MCP clients.
    await (built ? built.close() : context.close()).catch(() => undefined);
    throw error;
  }
}

/** The value of a settled promise, or its error thrown. */
function settledValue<T>(outcome: PromiseSettledResult<T>): T {
  if (outcome.status === 'rejected') throw outcome.reason;
  return outcome.value;
}

/** Adds `--add-dir` folders (existing, outside the work dir) to the session's list and saves it. */
async function mergeAdditionalDirs(
  session: Session,
  saved: readonly string[],
  added: readonly string[],
): Promise<string[]> {
  const dirs = [...saved];
  for (const raw of added) {
    const checked = checkAdditionalDir(session.workDir, raw);
    if (!checked.ok) throw new UsageError(`--add-dir ${checked.problem}`);
    if (!checked.inside && !dirs.includes(checked.dir)) dirs.push(checked.dir);
  }
  if (dirs.length !== saved.length) {
    await updateSessionState(session.stateFile, (s) => ({ ...s, additional_dirs: dirs }));
  }
  return dirs;
}

async function pickSession(options: CreateAgentSessionOptions): Promise<Session> {
  const where = { home: options.home, workDir: options.workDir };
  if (options.continueLast) return continueSession(where);
  if (options.sessionId) return openSession({ ...where, id: options.sessionId });
  return createSession(where);
}

async function buildProvider(
  resolved: ResolvedModel,
  config: Config,
  options: CreateAgentSessionOptions,
  sessionId: string,
): Promise<ChatProvider> {
  const scripted = ['_scripted_echo', 'scripted'].includes(resolved.providerType);
  const provider = await createChatProvider({
    type: resolved.providerType,
    model: resolved.model,
    baseUrl: resolved.baseUrl || undefined,
    apiKey: resolved.apiKey || undefined,
    customHeaders: resolved.customHeaders,
    reasoningKey: resolved.reasoningKey ?? undefined,
    maxTokens: resolved.maxTokens,
    temperature: resolved.temperature,
    topP: resolved.topP,
    thinkingKeep: resolved.thinkingKeep,
    sessionId,
    // Vertex AI without an API key: Google's usual variables, from the provider's env table or ours.
    vertex: {
      project: resolved.providerEnv.GOOGLE_CLOUD_PROJECT ?? options.env.GOOGLE_CLOUD_PROJECT,
      location: resolved.providerEnv.GOOGLE_CLOUD_LOCATION ?? options.env.GOOGLE_CLOUD_LOCATION,
    },
    scripts: scripted ? await loadScriptedScripts(resolved.providerEnv, options.env) : undefined,
  });
  const thinking = options.thinking ?? config.default_thinking;
  if (
    resolved.capabilities.includes('always_thinking') ||
    (thinking && resolved.capabilities.includes('thinking'))
  ) {
    return provider.withThinking('high');
  }
  if (options.thinking === false) return provider.withThinking('off');
  return provider;
}

function serviceOf(service: Config['services'][keyof Config['services']]) {
  if (!service) return undefined;
  return { baseUrl: service.base_url, apiKey: service.api_key, customHeaders: service.custom_headers };
}
