import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { WorkspaceTrustView } from '../../../app/agent-session.js';
import { trustQuestionText } from '../trust-question-text.js';
import { type InboundResponse, requestFrame } from './jsonrpc.js';
import type { OutboundFrame } from './transport.js';

/**
 * The workspace trust question of wire mode, a kimi-ts extension: sent once, right after the
 * `initialize` answer, and only to a client that declared `capabilities.workspace_trust` and only
 * when trusting the work dir would change something. Clients that did not declare it (Moonshot's
 * SDK, Kimi CLI's clients) never see this request type and keep the untrusted default.
 */
export const WORKSPACE_TRUST_REQUEST = 'WorkspaceTrustRequest';

export const workspaceTrustAnswerSchema = z.object({
  request_id: z.string().nullish(),
  trusted: z.boolean(),
  /** Also keep the trust for later sessions (the trust record in the agent's home). */
  remember: z.boolean().nullish(),
});

/** The `workspace` part of the `initialize` answer, for clients that speak of trust. */
export function workspaceTrustState(trust: WorkspaceTrustView): Record<string, unknown> {
  return {
    folder: trust.folder,
    trusted: trust.trusted,
    source: trust.source,
    enables: [...trust.enables],
    allow_rules: [...trust.allowRules],
  };
}

/** One question in flight: its frame, and the promise that settles when it is answered (or dropped). */
export class WorkspaceTrustQuestion {
  readonly id = randomUUID();
  readonly answered: Promise<void>;
  private settle: () => void = () => {};

  constructor(
    private readonly trust: WorkspaceTrustView,
    private readonly onProblem: (why: string) => void,
  ) {
    this.answered = new Promise((resolve) => {
      this.settle = resolve;
    });
  }

  frame(): OutboundFrame {
    return requestFrame(this.id, {
      type: WORKSPACE_TRUST_REQUEST,
      payload: {
        id: this.id,
        folder: this.trust.folder,
        enables: [...this.trust.enables],
        // Each allow rule as written (raw data, as the wire carries it); the description lists
        // them too, revealed, for a client that shows only the description.
        allow_rules: [...this.trust.allowRules],
        description: trustQuestionText(this.trust),
      },
    });
  }

  /** Takes the client's answer: only an explicit `trusted: true` trusts; anything else leaves it untrusted. */
  async answer(response: InboundResponse): Promise<void> {
    try {
      const parsed = response.ok ? workspaceTrustAnswerSchema.safeParse(response.result) : null;
      if (parsed?.success && parsed.data.trusted)
        await this.trust.trust({ remember: parsed.data.remember === true, source: 'client' });
      // A "No" to remember: the person is not asked again for this folder.
      else if (parsed?.success && parsed.data.remember === true) await this.trust.decline();
      else if (!parsed?.success)
        this.onProblem(
          `workspace trust request ${this.id}: the answer does not fit; the folder stays untrusted`,
        );
    } catch (error) {
      this.onProblem(`workspace trust could not be recorded: ${(error as Error).message}`);
    } finally {
      this.settle();
    }
  }

  /** The client went away without answering: the folder stays untrusted. */
  drop(): void {
    this.settle();
  }
}
