import { dirname } from 'node:path';
import type { HookEngine } from '../hooks/types.js';
import type { Context } from '../soul/context/context.js';
import { DenwaRenji } from '../soul/dmail.js';
import { Soul, type SoulOptions } from '../soul/soul.js';
import type { LoopControl, SoulLLM } from '../soul/soul-parts.js';
import { BUILTIN_TOOL_MODULES } from '../tools/builtin-modules.js';
import type { AgentRole } from '../tools/runtime.js';
import type { KimiToolset } from '../toolset/kimi-toolset.js';
import type { ToolDependencyTable } from '../toolset/loading/dependencies.js';
import type { AgentSpec } from './agent-spec.js';
import { renderSystemPrompt, type SystemPromptVarsInput } from './system-prompt.js';

/** What the root soul has and a subagent's has not. */
type RootSoulOptions = Pick<
  SoulOptions,
  | 'injections'
  | 'notifications'
  | 'planMode'
  | 'slashCommands'
  | 'beforeFirstStep'
  | 'autoTitle'
  | 'refreshAuth'
  | 'workTree'
  | 'goal'
  | 'onModelResponse'
>;

export interface SoulAssemblyParts {
  role: AgentRole;
  /** The agent whose system prompt and tools the soul gets. */
  agent: Pick<AgentSpec, 'file' | 'tools' | 'systemPromptPath' | 'systemPromptArgs'>;
  /** The soul's context; the system prompt is rendered into it on its first use. */
  context: Context;
  promptVars: SystemPromptVarsInput;
  /** The toolset the agent's tools are loaded into. */
  toolset: KimiToolset;
  /** What the tools may be injected with; `role` and the D-Mail holder are added here. */
  deps: ToolDependencyTable;
  llm: SoulLLM | null;
  llmNotSetMessage: string | undefined;
  loopControl: LoopControl;
  hooks: HookEngine;
  /** Runs once the agent's own tools are registered (root: MCP and plugin tools). */
  afterToolsLoaded?: (() => Promise<void>) | undefined;
  root?: RootSoulOptions | undefined;
  /** Told the tokens each model step used (a subagent's go to the session goal's budget). */
  onStepTokens?: ((tokens: number) => void) | undefined;
}

export interface AssembledSoul {
  soul: Soul;
  systemPrompt: string;
  /** Tool specs the loader skipped (a capability or service missing). */
  skippedTools: string[];
}

/**
 * Builds a soul, for a session's root agent and for a subagent alike: the system prompt (frozen into
 * the context on first use), the agent's tools loaded with the dependency table, then the Soul.
 */
export async function assembleSoul(parts: SoulAssemblyParts): Promise<AssembledSoul> {
  const { agent, context, toolset } = parts;
  let systemPrompt = context.systemPrompt;
  if (systemPrompt === null) {
    systemPrompt = await renderSystemPrompt(agent.systemPromptPath, parts.promptVars, agent.systemPromptArgs);
    await context.writeSystemPrompt(systemPrompt);
  }
  const denwaRenji = new DenwaRenji();
  const loaded = await toolset.loadTools(
    agent.tools,
    { ...parts.deps, role: parts.role, denwaRenji },
    { baseDir: dirname(agent.file), builtinModules: BUILTIN_TOOL_MODULES },
  );
  await parts.afterToolsLoaded?.();
  const isRoot = parts.role === 'root';
  const soul = new Soul({
    injections: [],
    ...parts.root,
    llm: parts.llm,
    llmNotSetMessage: parts.llmNotSetMessage,
    context,
    toolset,
    systemPrompt,
    // A subagent's task runs once: the Ralph loop is the root's.
    loopControl: isRoot ? parts.loopControl : { ...parts.loopControl, maxRalphIterations: 0 },
    hooks: parts.hooks,
    onStepTokens: parts.onStepTokens,
    denwaRenji,
    isRoot,
    hasDMailTool: toolset.find('SendDMail') !== undefined,
  });
  return { soul, systemPrompt, skippedTools: loaded.skipped.map((s) => s.spec) };
}
