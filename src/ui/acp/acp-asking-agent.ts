import { revealInvisible } from '../../util/reveal-invisible.js';
import type { ApprovalRequestData } from '../../wire/requests.js';
import { askingAgentLabel } from '../common/asking-agent.js';

type Asker = Pick<ApprovalRequestData, 'agent_id' | 'subagent_type' | 'source_description'> & {
  source_kind?: ApprovalRequestData['source_kind'];
  parent_tool_call_id?: string | null | undefined;
};

/**
 * Which subagent asks, for an ACP permission request: its label before the title
 * (`agent coder a1b2c3d4 — Fix the tests: Run command …`) and the facts under
 * `_meta["kimi-ts/asking_agent"]`. The main agent's requests are as before (nothing added). The
 * title (the model's command, path or question, and the agent's own description) is what the
 * editor's dialog shows: revealed, so a bidi override or blank-line padding cannot hide part of it.
 */
export function acpAskingAgent(
  request: Asker,
  title: string,
): { title: string; _meta?: Record<string, unknown> } {
  const label = askingAgentLabel(request);
  if (label === null) return { title: revealInvisible(title) };
  return {
    title: revealInvisible(`${label}: ${title}`),
    _meta: {
      'kimi-ts/asking_agent': {
        agent_id: request.agent_id ?? null,
        subagent_type: request.subagent_type ?? null,
        description: request.source_description ?? null,
        parent_tool_call_id: request.parent_tool_call_id ?? null,
      },
    },
  };
}
