import { z } from 'zod';
import { type JSONSchema, type ToolReturnValue, toolError } from '../kosong/tool.js';
import { ToolCallRequest } from '../wire/requests.js';
import type { KimiToolset } from './kimi-toolset.js';
import { runContextOr, sendOn } from './run-scope.js';
import type { KimiTool } from './tool-definition.js';

/** A tool a wire-mode client runs itself (`initialize.external_tools`). */
export interface ExternalToolSpec {
  name: string;
  description: string;
  parameters: JSONSchema;
}

export type ExternalToolParams = Record<string, unknown>;

/** The result of a call whose turn ended (or was cancelled) before the client answered. */
export const TURN_ENDED_MESSAGE = 'Agent turn ended before tool result was received.';

const external = new WeakSet<KimiTool>();

/** Whether the tool was registered by a wire client. */
export function isExternalTool(tool: KimiTool): boolean {
  return external.has(tool);
}

/**
 * A tool whose work happens in the wire client: a call sends a `ToolCallRequest` on its run's
 * wire and waits for the client's `ToolResult`. The client decides about its own tools, so the
 * toolset asks no approval. When the call's signal aborts (the turn ends or is cancelled), the
 * request is cancelled and the call ends at once.
 */
export function createExternalTool(spec: ExternalToolSpec): KimiTool<ExternalToolParams> {
  const tool: KimiTool<ExternalToolParams> = {
    name: spec.name,
    description: spec.description,
    parameters: spec.parameters,
    effect: 'external',
    parse(args) {
      if (args !== null && typeof args === 'object' && !Array.isArray(args)) {
        return { ok: true, params: args as ExternalToolParams };
      }
      return { ok: false, error: 'the arguments must be a JSON object' };
    },
    approval: () => ({ autoApprove: 'the client executes its own tools' }),
    async call(_params, ctx): Promise<ToolReturnValue> {
      const request = ToolCallRequest.fromToolCall(ctx.toolCall);
      sendOn(runContextOr(ctx.run).wire, request);
      try {
        return await request.wait(ctx.signal);
      } catch (error) {
        if (!ctx.signal.aborted) throw error;
        request.cancel(TURN_ENDED_MESSAGE);
        return toolError(TURN_ENDED_MESSAGE, 'Turn ended');
      }
    },
  };
  external.add(tool);
  return tool;
}

export interface ExternalToolRegistration {
  accepted: string[];
  rejected: { name: string; reason: string }[];
}

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const buildSpecSchema = () =>
  z.object({
    name: z.string(),
    description: z.string(),
    parameters: z.record(z.string(), z.unknown()),
  });
// Built on first use: only a wire client that registers tools needs it.
let specSchema: ReturnType<typeof buildSpecSchema> | undefined;

/**
 * Registers a client's tools. A name that belongs to a built-in (or MCP) tool is rejected with the
 * reason; registering an external tool again replaces the earlier one (a client that initializes
 * twice).
 */
export function registerExternalTools(
  toolset: KimiToolset,
  specs: readonly ExternalToolSpec[],
): ExternalToolRegistration {
  const accepted: string[] = [];
  const rejected: ExternalToolRegistration['rejected'] = [];
  for (const candidate of specs) {
    const name = typeof candidate?.name === 'string' ? candidate.name : String(candidate?.name);
    const reason = whyRejected(toolset, candidate);
    if (reason) {
      rejected.push({ name, reason });
      continue;
    }
    if (toolset.find(name)) toolset.remove(name);
    toolset.add(createExternalTool(candidate));
    if (!accepted.includes(name)) accepted.push(name);
  }
  return { accepted, rejected };
}

function whyRejected(toolset: KimiToolset, candidate: ExternalToolSpec): string | null {
  specSchema ??= buildSpecSchema();
  const parsed = specSchema.safeParse(candidate);
  if (!parsed.success) return 'a tool needs a name, a description and a JSON Schema object as parameters';
  const { name, parameters } = parsed.data;
  if (!TOOL_NAME.test(name)) return 'the name must be 1-64 letters, digits, "_" or "-"';
  if (parameters.type !== undefined && parameters.type !== 'object') {
    return 'the parameters schema must describe an object (type "object")';
  }
  const existing = toolset.find(name);
  if (existing && !isExternalTool(existing)) return `a tool named "${name}" already exists in this session`;
  return null;
}
