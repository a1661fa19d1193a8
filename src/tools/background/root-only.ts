import type { ToolReturnValue } from '../../kosong/index.js';
import { toolError } from '../../kosong/index.js';
import type { AgentRole } from '../runtime.js';

/** Background tasks belong to the session's root agent; a subagent asking gets this error. */
export function rootOnlyError(role: AgentRole): ToolReturnValue | null {
  if (role === 'root') return null;
  return toolError(
    'Background tasks can only be started and managed by the main agent, not by a subagent.',
    'Background task unavailable',
  );
}
