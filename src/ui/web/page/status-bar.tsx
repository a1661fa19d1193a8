import { formatDollars, type ModelPrice, tokenCost } from '../../../util/token-cost.js';
import type { SessionStatus } from './conversation-state.js';
import type { ConnectionState } from './wire-client.js';

/**
 * Context %, tokens, cost (the session's tokens at the current model's prices, as the terminal UI
 * counts them; n/a when the config gives the model no price), plan mode and the connection.
 */
export function StatusBar({
  status,
  connection,
  price,
  connectionNote,
}: {
  status: SessionStatus;
  connection: ConnectionState;
  price: ModelPrice | null;
  /** Why the connection is in its state (a retry's countdown), shown beside it. */
  connectionNote?: string | null;
}) {
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
      <span class={`conn ${connection}`} data-state={connection}>
        {CONNECTION_WORDS[connection]}
      </span>
      {connectionNote ? <span class="conn-note">{connectionNote}</span> : null}
      <span data-testid="context">{context}</span>
      <span title="tokens in / out (cached)">
        ↑{tokens(status.tokensIn)} ↓{tokens(status.tokensOut)}
        {status.tokensCached ? ` (${tokens(status.tokensCached)} cached)` : ''}
      </span>
      {price ? (
        <span data-testid="cost" title="at the current model's prices per million tokens">
          cost {formatDollars(tokenCost(price, status.usage))}
        </span>
      ) : (
        <span data-testid="cost" title="the config declares no price for this model">
          cost n/a
        </span>
      )}
      {status.planMode ? <span class="badge plan">plan</span> : null}
    </div>
  );
}

/** The connection's state as a person says it. */
const CONNECTION_WORDS: Record<ConnectionState, string> = {
  connecting: 'Connecting…',
  open: 'Connected',
  reconnecting: 'Reconnecting…',
  closed: 'Not connected',
  failed: 'Cannot connect',
};

function tokens(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${(count / 1000).toFixed(1)}k`;
  return `${(count / 1_000_000).toFixed(1)}M`;
}
