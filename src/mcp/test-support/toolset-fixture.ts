import { z } from 'zod';
import { type ToolResult, toolOk } from '../../kosong/tool.js';
import { Approval } from '../../toolset/approval/approval.js';
import { KimiToolset } from '../../toolset/kimi-toolset.js';
import { cleanDispatch, toolCall } from '../../toolset/test-support/dispatch.js';
import { testPolicy } from '../../toolset/test-support/test-policy.js';
import { defineTool } from '../../toolset/tool-definition.js';

/** A toolset that auto-approves (yolo) and already holds a built-in tool named `echo`. */
export function toolsetWithBuiltinEcho(): { toolset: KimiToolset; approval: Approval } {
  const approval = new Approval({ state: { yolo: true } });
  const toolset = new KimiToolset({ policy: testPolicy({ workDir: process.cwd(), approval }), approval });
  toolset.add(
    defineTool({
      name: 'echo',
      description: 'A built-in echo.',
      params: z.object({}),
      effect: 'read-only',
      call: () => toolOk('built-in'),
    }),
  );
  return { toolset, approval };
}

let nextCallId = 1;

/** Calls a tool through the toolset as `step` would, with an optional signal for the call. */
export async function callTool(
  toolset: KimiToolset,
  name: string,
  args: unknown = {},
  signal?: AbortSignal,
): Promise<ToolResult> {
  const call = toolCall(`call-${nextCallId++}`, name, args);
  return toolset.handle(call, cleanDispatch(signal));
}

/** The text parts of a result's output, joined. */
export function outputText(result: ToolResult): string {
  const { output } = result.return_value;
  return typeof output === 'string'
    ? output
    : output.map((part) => (part.type === 'text' ? part.text : `<${part.type}>`)).join('');
}

/** Whether a process with this id is still running. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
