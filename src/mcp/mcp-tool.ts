import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { textPart } from '../kosong/message.js';
import { type ToolReturnValue, toolError, toolOk } from '../kosong/tool.js';
import type { KimiTool } from '../toolset/tool-definition.js';
import { errorText, isConnectionClosedError, isRequestTimeoutError } from './connection.js';
import { saveFullOutput, truncationNotice } from './full-output.js';
import type { RemoteTool } from './remote-tool.js';
import { convertToolResult, MCP_OUTPUT_BUDGET } from './result-conversion.js';

/** What an MCP tool needs from the server it belongs to. */
export interface McpToolHost {
  readonly serverName: string;
  /** The live client, or why the server cannot take calls now. */
  client(): { client: Client } | { unavailable: string };
  /** Masks configured credentials in text shown to the model. */
  redact(text: string): string;
}

export type { RemoteTool } from './remote-tool.js';

export interface McpToolOptions {
  host: McpToolHost;
  remote: RemoteTool;
  /** `[mcp.client] tool_call_timeout_ms`. */
  timeoutMs: number;
  /** Where the full output of a truncated result is saved (e.g. `<session>/mcp-outputs`). */
  outputDir?: string | undefined;
  budget?: number | undefined;
}

export type McpToolParams = Record<string, unknown>;

/**
 * One remote tool in the toolset: named as the server names it, described with the server's name,
 * taking the server's input schema as is. Approval (`mcp:<name>`) is enforced by the toolset
 * before `call` runs; the server validates the arguments itself.
 */
export function createMcpTool(options: McpToolOptions): KimiTool<McpToolParams> {
  const { host, remote } = options;
  const budget = options.budget ?? MCP_OUTPUT_BUDGET;
  const description = remote.description?.trim() || 'The server gave no description for this tool.';
  return {
    name: remote.name,
    description: `A tool from the MCP (Model Context Protocol) server \`${host.serverName}\`.\n\n${description}`,
    parameters: remote.inputSchema,
    effect: 'external',
    parse(args) {
      if (args !== null && typeof args === 'object' && !Array.isArray(args)) {
        return { ok: true, params: args as McpToolParams };
      }
      return { ok: false, error: 'the arguments must be a JSON object' };
    },
    approval: (params) => ({
      action: `mcp:${remote.name}`,
      description: approvalDescription(remote.name, host.serverName, params),
    }),
    async call(params, ctx): Promise<ToolReturnValue> {
      const available = host.client();
      if ('unavailable' in available) {
        return toolError(
          `MCP server \`${host.serverName}\` cannot run \`${remote.name}\`: ${available.unavailable}`,
          'MCP server unavailable',
        );
      }
      let result: CallToolResult;
      try {
        const answer = await available.client.callTool({ name: remote.name, arguments: params }, undefined, {
          timeout: options.timeoutMs,
          signal: ctx.signal,
        });
        result = asCallToolResult(answer);
      } catch (error) {
        // The SDK reports an aborted call as a timeout too: the signal tells them apart.
        if (ctx.signal.aborted) throw ctx.signal.reason ?? error;
        return callFailure(error, remote.name, host, options.timeoutMs);
      }

      const converted = convertToolResult(result, budget);
      let parts = converted.parts;
      if (converted.truncated) {
        let saved = null;
        if (options.outputDir) {
          try {
            saved = await saveFullOutput(converted, {
              dir: options.outputDir,
              toolName: remote.name,
              callId: ctx.toolCall.id,
            });
          } catch {
            // Could not keep the rest: the notice falls back to asking for less.
          }
        }
        parts = [...parts, textPart(`\n\n${truncationNotice(saved, budget)}`)];
      }
      if (result.isError) {
        return toolError(
          'The MCP tool reported an error; the output is its error message or an incomplete result.',
          '',
          parts,
        );
      }
      return toolOk(parts);
    },
  };
}

/** Arguments longer than this are cut in the approval, which then says how much is not shown. */
const SHOWN_ARGUMENTS_CHARS = 4000;

/**
 * The approval of an MCP call shows its arguments, as the built-in tools show their command or diff:
 * the person approves this call, not the tool's name. Long arguments end with how much is not shown.
 */
function approvalDescription(toolName: string, serverName: string, params: McpToolParams): string {
  const json = JSON.stringify(params, null, 2) ?? '{}';
  const shown =
    json.length <= SHOWN_ARGUMENTS_CHARS
      ? json
      : `${json.slice(0, SHOWN_ARGUMENTS_CHARS)}\n… ${json.length - SHOWN_ARGUMENTS_CHARS} more characters of the arguments not shown`;
  return `Call MCP tool \`${toolName}\` (server \`${serverName}\`) with arguments:\n${shown}`;
}

function callFailure(
  error: unknown,
  toolName: string,
  host: McpToolHost,
  timeoutMs: number,
): ToolReturnValue {
  if (isRequestTimeoutError(error)) {
    return toolError(
      `MCP tool \`${toolName}\` did not answer within ${timeoutMs} ms and the call was abandoned. The limit is \`tool_call_timeout_ms\` under \`[mcp.client]\` in the config file; tell the user it may be set too low for this tool.`,
      'Timeout',
    );
  }
  if (isConnectionClosedError(error)) {
    const state = host.client();
    const why = 'unavailable' in state ? state.unavailable : 'the connection closed';
    return toolError(
      `MCP server \`${host.serverName}\` stopped while running \`${toolName}\`: ${why}. Its tools cannot be used for the rest of this session.`,
      'MCP server failed',
    );
  }
  return toolError(`MCP tool \`${toolName}\` failed: ${host.redact(errorText(error))}`, 'MCP tool error');
}

/** Servers on protocol 2024-10-07 may still answer with `toolResult`; show it as JSON text. */
function asCallToolResult(answer: unknown): CallToolResult {
  const value = answer as Partial<CallToolResult> & { toolResult?: unknown };
  if (Array.isArray(value.content)) return value as CallToolResult;
  return { content: [{ type: 'text', text: JSON.stringify(value.toolResult ?? value) }] };
}
