import { type TerminalSafe, terminalText as t } from '../../util/sanitize-terminal.js';
import type { SafeComponent } from './safe-component.js';
import { sanitizeForTerminal } from './sanitize-for-terminal.js';
import type { TuiStyle } from './tui-style.js';

/**
 * The subagents one call started, under that call: one for an Agent call (shown as before, with no
 * header), several for an AgentSwarm call, each under a header with its agent id, so their streams
 * never run into each other.
 */
export class NestedAgentsView<V extends SafeComponent> implements SafeComponent {
  private readonly agents: { agentId: string; view: V }[] = [];

  constructor(
    private readonly style: TuiStyle,
    private readonly makeView: () => V,
  ) {}

  /** The view of one agent's events, made when it first sends one. */
  viewFor(agentId: string): V {
    let entry = this.agents.find((agent) => agent.agentId === agentId);
    if (!entry) {
      entry = { agentId, view: this.makeView() };
      this.agents.push(entry);
    }
    return entry.view;
  }

  render(width: number): TerminalSafe[] {
    const only = this.agents.length === 1 ? this.agents[0] : undefined;
    if (only) return only.view.render(width);
    const lines: TerminalSafe[] = [];
    for (const { agentId, view } of this.agents) {
      lines.push(this.style.dim(t`agent ${sanitizeForTerminal(agentId)}`));
      if (width > 4) for (const line of view.render(width - 2)) lines.push(t`  ${line}`);
    }
    return lines;
  }

  invalidate(): void {
    for (const { view } of this.agents) view.invalidate();
  }
}
