import { type ApprovalScope, ApprovalScopeSet } from './approval-scope.js';

/** What one swarm's agents were approved for: scopes the Approval checks, command prefixes the policy checks. */
interface SwarmGrant {
  readonly scopes: ApprovalScopeSet;
  /** Tool name → command prefixes approved for this swarm. */
  readonly prefixes: Map<string, string[]>;
}

/**
 * "Approve for all agents of this swarm": approvals kept per swarm id, in memory only. They cover the
 * agents of that swarm and no other (not the main agent, not another swarm, not a later one), and
 * are forgotten when the swarm ends. Never persisted: a swarm lives within one process.
 */
export class SwarmApprovals {
  private readonly grants = new Map<string, SwarmGrant>();

  add(swarmId: string, scope: ApprovalScope): void {
    this.grant(swarmId).scopes.add(scope);
  }

  addPrefix(swarmId: string, toolName: string, prefix: string): void {
    const { prefixes } = this.grant(swarmId);
    prefixes.set(toolName, [...(prefixes.get(toolName) ?? []), prefix]);
  }

  covers(swarmId: string, action: string, description: string): boolean {
    return this.grants.get(swarmId)?.scopes.covers(action, description) ?? false;
  }

  prefixes(swarmId: string, toolName: string): readonly string[] {
    return this.grants.get(swarmId)?.prefixes.get(toolName) ?? [];
  }

  /** The swarm ended: what its agents were approved for goes with it. */
  end(swarmId: string): void {
    this.grants.delete(swarmId);
  }

  private grant(swarmId: string): SwarmGrant {
    let grant = this.grants.get(swarmId);
    if (!grant) {
      grant = { scopes: new ApprovalScopeSet(), prefixes: new Map() };
      this.grants.set(swarmId, grant);
    }
    return grant;
  }
}
