import type { ToolReturnValue } from '../kosong/index.js';
import { runWithWire } from '../wire/current-wire.js';
import { runWithApprovalSource } from './approval/approval-source.js';
import { runInToolCall, type ToolCallScope } from './current-tool-call.js';
import type { RunContext } from './run-scope.js';
import type { KimiTool, ToolCallContext } from './tool-definition.js';

/**
 * Tools written outside kimi-ts (an agent spec's `./word-count.mjs:WordCount`), whose calls run
 * inside the AsyncLocalStorage stores of current-tool-call.ts, approval-source.ts and current-wire.ts,
 * as every call did before the run context was passed explicitly (run-scope.ts). Such a tool may ask
 * `approval.request(sender, action, description)` without naming its call, or send on `wireSend`,
 * as the tool interface has always allowed. The price, on Node 20 and 22: from the first call of one,
 * every promise of the process pays the stores' promise hooks; a session with kimi-ts's own tools
 * only never pays it.
 */
const ambientTools = new WeakSet<KimiTool>();

/** Marks a tool loaded from outside kimi-ts (tool-loader.ts). */
export function runWithAmbientContext(tool: KimiTool): void {
  ambientTools.add(tool);
}

/** Calls the tool, inside the stores when it was loaded from outside kimi-ts. */
export function callTool<P>(
  tool: KimiTool<P>,
  params: P,
  ctx: ToolCallContext,
  scope: ToolCallScope,
  run: RunContext,
): Promise<ToolReturnValue> | ToolReturnValue {
  if (!ambientTools.has(tool as KimiTool)) return tool.call(params, ctx);
  const inCall = () => runInToolCall(scope, () => tool.call(params, ctx));
  const { approvalSource, wire } = run;
  const withSource = () => (approvalSource ? runWithApprovalSource(approvalSource, inCall) : inCall());
  return wire ? runWithWire(wire, withSource) : withSource();
}
