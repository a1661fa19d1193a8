import type { SessionStatus } from './conversation-state.js';
import type { ConnectionState } from './wire-client.js';

/** Context %, tokens, cost (unknown: the config has no prices), plan mode and the connection. */
export function StatusBar({ status, connection }: { status: SessionStatus; connection: ConnectionState }) {
  const context =
    status.contextUsage === null
      ? 'context –'
      : `context ${Math.round(status.contextUsage * 100)}%${
          status.contextTokens !== null && status.maxContextTokens !== null
            ? ` (${tokens(status.contextTokens)}/${tokens(status.maxContextTokens)})`
            : ''
        }`;
  return (
    <div class="status-bar" role="status">
      <span class={`conn ${connection}`}>{connection}</span>
      <span data-testid="context">{context}</span>
      <span title="tokens in / out (cached)">
        ↑{tokens(status.tokensIn)} ↓{tokens(status.tokensOut)}
        {status.tokensCached ? ` (${tokens(status.tokensCached)} cached)` : ''}
      </span>
      <span title="the config declares no prices">cost n/a</span>
      {status.planMode ? <span class="badge plan">plan</span> : null}
    </div>
  );
}

function tokens(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${(count / 1000).toFixed(1)}k`;
  return `${(count / 1_000_000).toFixed(1)}M`;
}
