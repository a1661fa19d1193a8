import type { ToolCall } from './message.js';
import {
  type JSONSchema,
  type Tool,
  type ToolDispatch,
  type ToolResult,
  type ToolReturnValue,
  type Toolset,
  toolError,
} from './tool.js';

export interface CallableTool extends Tool {
  call(args: unknown, dispatch: ToolDispatch): ToolReturnValue | Promise<ToolReturnValue>;
}

/** Builds a CallableTool from a name, description, JSON schema and function. */
export function callableTool(
  name: string,
  description: string,
  parameters: JSONSchema,
  call: CallableTool['call'],
): CallableTool {
  return { name, description, parameters, call };
}

/**
 * A minimal toolset: looks the tool up, parses the arguments and runs the call. Errors come back as
 * results. Use it for tests and for using kosong as a library; kimi-ts's own toolset lives in
 * `src/toolset/`.
 */
export class SimpleToolset implements Toolset {
  private readonly byName = new Map<string, CallableTool>();

  constructor(tools: Iterable<CallableTool> = []) {
    for (const tool of tools) this.add(tool);
  }

  add(tool: CallableTool): void {
    this.byName.set(tool.name, tool);
  }

  get tools(): Tool[] {
    return [...this.byName.values()].map(({ name, description, parameters }) => ({
      name,
      description,
      parameters,
    }));
  }

  handle(call: ToolCall, dispatch: ToolDispatch): ToolResult | Promise<ToolResult> {
    const result = (return_value: ToolReturnValue): ToolResult => ({ tool_call_id: call.id, return_value });
    const tool = this.byName.get(call.function.name);
    if (!tool) {
      const text = `Tool \`${call.function.name}\` not found`;
      return result(toolError(text, text));
    }
    let args: unknown;
    try {
      const raw = call.function.arguments;
      args = raw === null || raw.trim() === '' ? {} : JSON.parse(raw);
    } catch (error) {
      return result(
        toolError(`Error parsing JSON arguments: ${(error as Error).message}`, 'Invalid arguments'),
      );
    }
    return (async () => {
      try {
        return result(await tool.call(args, dispatch));
      } catch (error) {
        return result(
          toolError(
            `Error running tool: ${error instanceof Error ? error.message : String(error)}`,
            'Tool runtime error',
          ),
        );
      }
    })();
  }
}
