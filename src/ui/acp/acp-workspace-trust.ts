import type * as acp from '@agentclientprotocol/sdk';
import { z } from 'zod';
import type { AgentSession } from '../../app/agent-session.js';
import { trustQuestionText } from '../common/trust-question-text.js';

/**
 * Workspace trust over ACP, as kimi-ts extensions (ACP's `_meta` and `_`-prefixed methods): an editor
 * that declares `clientCapabilities._meta["kimi-ts/workspace_trust"] = true` is asked with the
 * request `_kimi-ts/workspace_trust` after `session/new` or `session/load`, when trusting the folder
 * would change something; `_meta["kimi-ts/trust_workspace"] = true` on `session/new` or
 * `session/load` trusts it for that session. Editors that declare nothing see no new request and get
 * the untrusted default (or `--trust-workspace`).
 */
export const TRUST_CAPABILITY = 'kimi-ts/workspace_trust';
export const TRUST_REQUEST = '_kimi-ts/workspace_trust';
export const TRUST_FIELD = 'kimi-ts/trust_workspace';

const answerSchema = z.object({ trusted: z.boolean(), remember: z.boolean().nullish() });

export function canAskWorkspaceTrust(capabilities: acp.ClientCapabilities): boolean {
  return capabilities._meta?.[TRUST_CAPABILITY] === true;
}

/** Whether a `session/new` or `session/load` asks to trust the folder for that session. */
export function asksToTrust(params: { _meta?: { [key: string]: unknown } | null }): boolean {
  return params._meta?.[TRUST_FIELD] === true;
}

/**
 * Settles the session's trust before its first prompt: trusted by the request's own field, or asked
 * of an editor that can answer. Anything but an explicit `trusted: true` leaves it untrusted.
 */
export async function settleWorkspaceTrust(
  session: AgentSession,
  options: { trustedByRequest: boolean; canAsk: boolean; client: acp.AgentContext },
): Promise<void> {
  const trust = session.workspaceTrust;
  if (options.trustedByRequest) {
    await trust.trust({ remember: false, source: 'client' });
    return;
  }
  if (!options.canAsk || !trust.worthAsking) return;
  try {
    const answer = answerSchema.safeParse(
      await options.client.request(TRUST_REQUEST, {
        sessionId: session.sessionId,
        folder: trust.folder,
        enables: [...trust.enables],
        // Each allow rule as written, and the whole question as text (the rules revealed), for an
        // editor that shows only that.
        allow_rules: [...trust.allowRules],
        description: trustQuestionText(trust),
      }),
    );
    if (answer.success && answer.data.trusted)
      await trust.trust({ remember: answer.data.remember === true, source: 'client' });
  } catch {
    // The editor failed to answer (or went away): the folder stays untrusted.
  }
}
