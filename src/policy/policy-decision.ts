import type { DisplayBlock } from '../kosong/index.js';
import type { Effect } from './effects.js';

/** The question a tool phrases for a call (its action is what approve-for-session remembers). */
export interface ToolQuestion {
  readonly action: string;
  readonly description: string;
  readonly display?: readonly DisplayBlock[] | undefined;
}

export interface PolicyRequest {
  readonly toolName: string;
  readonly effects: readonly Effect[];
  /**
   * The tool's own question; `'none-needed'` when the tool says this call needs no approval (the
   * plan file in plan mode, a call it will refuse anyway); undefined when it has no opinion.
   */
  readonly question: ToolQuestion | 'none-needed' | undefined;
  /**
   * Tools whose rules judge this call too, after `toolName`'s: a rewind writes files, so a rule for
   * WriteFile or StrReplaceFile (`deny Write(secrets/**)`) holds for it as it does for the edit tools.
   */
  readonly ruleNames?: readonly string[] | undefined;
  /** The call comes from a background agent: no person watches it. */
  readonly background?: boolean | undefined;
  /**
   * The asking agent's swarm (null: none), so approvals given for that swarm count; absent: what the
   * session approvals know of the caller.
   */
  readonly swarmId?: string | null | undefined;
}

/** Which step of the decision order decided. */
export type DecisionStep =
  | 'deny-rule'
  | 'sensitive'
  | 'private-network'
  | 'sandbox'
  | 'protected'
  | 'rule'
  | 'session-approval'
  | 'mode'
  | 'tool-default';

export type PolicyDecision =
  | { readonly decision: 'allow'; readonly step: DecisionStep }
  | { readonly decision: 'deny'; readonly step: DecisionStep; readonly reason: string }
  | {
      readonly decision: 'ask';
      readonly step: DecisionStep;
      readonly action: string;
      readonly description: string;
      readonly display: readonly DisplayBlock[];
      /** Names a secret file or a private address: asked even in yolo, never remembered. */
      readonly secret: boolean;
      /** Asked even when yolo would approve on its own. */
      readonly evenIfAutoApproving: boolean;
      /** A plain approval also covers the action for the rest of the session (SearchWeb). */
      readonly rememberApproval: boolean;
    };
