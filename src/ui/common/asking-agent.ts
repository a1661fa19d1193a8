import type { ApprovalRequestData } from '../../wire/request-payloads.js';

/** Characters of a subagent's description the queue line shows. */
const DESCRIPTION_CHARS = 48;

/**
 * Which agent asks, as the approval queue names it: `agent coder a1b2c3d4 — Fix the tests` (a
 * background one says so); null for the main agent, which stays unmarked. The id, the type and the
 * description come from the model's own Agent call: untrusted, the caller sanitises them.
 */
export function askingAgentLabel(
  request: Pick<ApprovalRequestData, 'agent_id' | 'subagent_type' | 'source_description'> & {
    source_kind?: ApprovalRequestData['source_kind'];
  },
): string | null {
  const id = request.agent_id?.trim();
  if (!id) return null;
  const kind = request.source_kind === 'background_agent' ? 'background agent' : 'agent';
  const type = request.subagent_type?.trim();
  const description = [...(request.source_description ?? '').replace(/[\t\n\v\f\r ]+/g, ' ').trim()];
  const about =
    description.length === 0
      ? ''
      : ` — ${description.length > DESCRIPTION_CHARS ? `${description.slice(0, DESCRIPTION_CHARS - 1).join('')}…` : description.join('')}`;
  return `${kind} ${type ? `${type} ` : ''}${id}${about}`;
}

/**
 * The approval queue's line over the request it shows: `2 of 3 · agent coder a1b2c3d4 — …`. The
 * position shows only when more than one waits; null when there is nothing to say (one request,
 * from the main agent).
 */
export function approvalQueueLine(
  request: ApprovalRequestData,
  position: number,
  total: number,
): string | null {
  const agent = askingAgentLabel(request);
  const where = total > 1 ? `${position} of ${total}` : null;
  const parts = [where, agent].filter((part): part is string => part !== null);
  return parts.length > 0 ? parts.join(' · ') : null;
}
