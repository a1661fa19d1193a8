import { randomBytes } from 'node:crypto';
import type { DisplayBlock } from '../../kosong/index.js';
import type { Approval } from '../../toolset/approval/approval.js';
import type { RunContext } from '../../toolset/run-scope.js';

/**
 * Asks the person through the session's approval seam, once the policy said to ask
 * (restore-policy.ts), as a tool's side effect would: the request reaches every front end (the
 * wire's ApprovalRequest, on the wire of `run`) with the policy's facts, and nothing is remembered for later rewinds. A slash command is not a tool call, so it asks as a call of its own.
 */
export async function askRewindApproval(
  approval: Approval,
  action: string,
  description: string,
  signal: AbortSignal,
  run: RunContext,
  extra: { display?: readonly DisplayBlock[]; evenIfAutoApproving?: boolean } = {},
): Promise<boolean> {
  const toolCall = {
    type: 'function' as const,
    id: `rewind_${randomBytes(6).toString('hex')}`,
    function: { name: 'Rewind', arguments: '{}' },
  };
  const answer = await approval.request(
    'Rewind',
    action,
    description,
    // The description says it; a brief block with the same text showed it twice in the panel.
    [...(extra.display ?? [])],
    {
      remember: false,
      evenIfAutoApproving: extra.evenIfAutoApproving,
      call: { toolCall, signal, approvedActions: new Set() },
      run,
    },
  );
  return answer.approved;
}
