/**
 * kimi-ts as a library. The LLM layer alone is `kimi-ts/kosong`, the Wire alone `kimi-ts/wire`; this
 * entry adds what an embedding program needs to run the agent: a session built from config, the
 * soul and its Wire, the toolset and how tools are defined.
 */

export type { AgentSession, ExternalToolSpec } from './app/agent-session.js';
export { type CreateAgentSessionOptions, createAgentSession } from './app/create-agent-session.js';
export { defaultExtensions } from './app/default-extensions.js';
export {
  defineExtension,
  type Extension,
  type ExtensionContext,
  type ExtensionContribution,
  type ExtensionHost,
  type SessionServices,
} from './app/extension.js';
export { ModelSwitchError } from './app/model-switch-error.js';
export { describeSessionWarning, type SessionWarning } from './app/session-warning.js';
export * as kosong from './kosong/index.js';
export { LLMNotSet, LLMNotSupported, MaxStepsReached, RunCancelled } from './soul/errors.js';
export { runSoul, type UILoop, wireSend } from './soul/run-soul.js';
export type { TurnOutcome } from './soul/turn-outcome.js';
export type { UserChannel } from './tools/user-channel.js';
export { Approval } from './toolset/approval/approval.js';
export { KimiToolset } from './toolset/kimi-toolset.js';
export { SkipThisTool, toolFactory } from './toolset/loading/dependencies.js';
export { defineTool, type KimiTool } from './toolset/tool-definition.js';
export { VERSION } from './version.js';
export * as wire from './wire/index.js';
