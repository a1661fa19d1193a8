import type { ApprovalScopeKind } from './approval-runtime.js';

/** One remembered approval: every request with `action`, or only the one with this exact description. */
export type ApprovalScope =
  | { scope: 'action'; action: string }
  | { scope: 'exact'; action: string; description: string };

/** A `prefix` answer is kept by the policy (it needs the parsed command); here it counts as exact. */
export function approvalScope(kind: ApprovalScopeKind, action: string, description: string): ApprovalScope {
  return kind === 'action' ? { scope: 'action', action } : { scope: 'exact', action, description };
}

export function scopeCovers(scope: ApprovalScope, action: string, description: string): boolean {
  return scope.action === action && (scope.scope === 'action' || scope.description === description);
}

/** A set of remembered approvals with constant-time lookup. */
export class ApprovalScopeSet {
  private readonly actions = new Set<string>();
  private readonly exact = new Set<string>();

  constructor(scopes: Iterable<ApprovalScope> = []) {
    for (const scope of scopes) this.add(scope);
  }

  /** Returns false if the scope was already covered. */
  add(scope: ApprovalScope): boolean {
    if (scope.scope === 'action') {
      if (this.actions.has(scope.action)) return false;
      this.actions.add(scope.action);
      return true;
    }
    if (this.covers(scope.action, scope.description)) return false;
    this.exact.add(exactKey(scope.action, scope.description));
    return true;
  }

  covers(action: string, description: string): boolean {
    return this.actions.has(action) || this.exact.has(exactKey(action, description));
  }

  get actionScopes(): string[] {
    return [...this.actions];
  }

  get exactScopes(): { action: string; description: string }[] {
    return [...this.exact].map((key) => {
      const [action, description] = JSON.parse(key) as [string, string];
      return { action, description };
    });
  }

  toList(): ApprovalScope[] {
    return [
      ...this.actionScopes.map((action): ApprovalScope => ({ scope: 'action', action })),
      ...this.exactScopes.map(
        ({ action, description }): ApprovalScope => ({ scope: 'exact', action, description }),
      ),
    ];
  }
}

function exactKey(action: string, description: string): string {
  return JSON.stringify([action, description]);
}
