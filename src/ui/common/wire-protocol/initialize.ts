import type { AgentSession } from '../../../app/agent-session.js';
import { type AskClient, HOOK_EVENTS } from '../../../hooks/index.js';
import { VERSION } from '../../../version.js';
import { WIRE_PROTOCOL_VERSION } from '../../../wire/wire-file.js';
import type { InitializeParams } from './schemas.js';

export const SERVER_NAME = 'kimi-ts';

/** Tools that need the client's help, hidden from the model unless the client says it can help. */
export const QUESTION_TOOLS = ['AskUserQuestion'] as const;
export const PLAN_MODE_TOOLS = ['EnterPlanMode', 'ExitPlanMode'] as const;

export interface ClientCapabilities {
  supportsQuestion: boolean;
  supportsPlanMode: boolean;
  /** The client shows a running tool's live output (`ToolOutput`, a kimi-ts extension). */
  supportsToolOutput: boolean;
  /** The client can answer a WorkspaceTrustRequest (a kimi-ts extension). */
  supportsWorkspaceTrust: boolean;
}

/** What a client that never sent `initialize` (a legacy client) is assumed to support. */
export const LEGACY_CLIENT: ClientCapabilities = {
  supportsQuestion: false,
  supportsPlanMode: false,
  supportsToolOutput: false,
  supportsWorkspaceTrust: false,
};

/** Shows or hides the client-dependent tools to match what the client supports. */
export function applyToolVisibility(session: AgentSession, capabilities: ClientCapabilities): void {
  for (const name of QUESTION_TOOLS) {
    if (capabilities.supportsQuestion) session.unhideTool(name);
    else session.hideTool(name);
  }
  for (const name of PLAN_MODE_TOOLS) {
    if (capabilities.supportsPlanMode) session.unhideTool(name);
    else session.hideTool(name);
  }
}

/**
 * Applies a client's `initialize` to the session (external tools, hook subscriptions, tool
 * visibility) and builds the answer. Returns the client's capabilities for the server to remember.
 */
export function initializeSession(
  session: AgentSession,
  params: InitializeParams,
  askClient: AskClient,
): { result: Record<string, unknown>; capabilities: ClientCapabilities } {
  const result: Record<string, unknown> = {
    protocol_version: WIRE_PROTOCOL_VERSION,
    server: { name: SERVER_NAME, version: VERSION },
    slash_commands: session.slashCommands.map((command) => ({
      name: command.name,
      description: command.description,
      aliases: [...command.aliases],
    })),
  };

  if (params.external_tools != null) {
    const registered = session.registerExternalTools(params.external_tools);
    result.external_tools = { accepted: registered.accepted, rejected: registered.rejected };
  }

  if (params.hooks != null) session.setWireHookSubscriptions(params.hooks, askClient);
  result.hooks = { supported_events: [...HOOK_EVENTS], configured: session.configuredHookCounts() };

  const capabilities: ClientCapabilities = {
    supportsQuestion: params.capabilities?.supports_question === true,
    supportsPlanMode: params.capabilities?.supports_plan_mode === true,
    supportsToolOutput: params.capabilities?.supports_tool_output === true,
    supportsWorkspaceTrust: params.capabilities?.workspace_trust === true,
  };
  applyToolVisibility(session, capabilities);
  result.capabilities = { supports_question: true };
  return { result, capabilities };
}
