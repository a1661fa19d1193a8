import { useEffect, useReducer, useRef, useState } from 'preact/hooks';
import {
  type ConversationAction,
  type ConversationState,
  EMPTY_CONVERSATION,
  reduceConversation,
} from './conversation-state.js';
import { type CloseDiagnosis, type ConnectionState, type RetryInfo, WireClient } from './wire-client.js';

/** How long wire messages are gathered before the page re-renders (a streaming answer is many frames). */
const RENDER_BATCH_MS = 16;

/** Applies a batch; a message the reducer cannot use (a newer server's event kind) is skipped. */
function reduceMany(state: ConversationState, actions: ConversationAction[]): ConversationState {
  return actions.reduce((current, action) => {
    try {
      return reduceConversation(current, action);
    } catch {
      return current;
    }
  }, state);
}

export interface WireSession {
  state: ConversationState;
  connection: ConnectionState;
  client: WireClient | null;
  /** Removes an answered request's panel at once (the server confirms with ApprovalResponse). */
  markAnswered(requestId: string): void;
  /** Why the connection gave up (`failed`): the session cannot be served. */
  failure: string | null;
  /** The reconnect being waited for, while `reconnecting`. */
  retry: RetryInfo | null;
  /** Starts connecting again after a failure (the "Try again" button). */
  tryAgain(): void;
}

/** Connects to one session's stream and keeps the conversation state built from it. */
export function useWireSession(
  url: string | null,
  protocols: () => string[],
  diagnose?: () => Promise<CloseDiagnosis>,
): WireSession {
  const [state, dispatchMany] = useReducer(reduceMany, EMPTY_CONVERSATION);
  const [connection, setConnection] = useState<ConnectionState>('closed');
  const [failure, setFailure] = useState<string | null>(null);
  const [retry, setRetry] = useState<RetryInfo | null>(null);
  const [client, setClient] = useState<WireClient | null>(null);
  const queue = useRef<ConversationAction[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    if (!url) return;
    const flush = () => {
      timer.current = null;
      const actions = queue.current;
      queue.current = [];
      if (actions.length > 0) dispatchMany(actions);
    };
    const enqueue = (action: ConversationAction) => {
      queue.current.push(action);
      timer.current ??= setTimeout(flush, RENDER_BATCH_MS);
    };
    setFailure(null);
    setRetry(null);
    const wire = new WireClient({
      url: () => url,
      protocols,
      ...(diagnose ? { diagnose } : {}),
      handlers: {
        onRetry: setRetry,
        onFailure: setFailure,
        onEvent: (event) => enqueue({ kind: 'event', event }),
        onRequest: (rpcId, type, payload) => enqueue({ kind: 'request', rpcId, type, payload }),
        onReset: () => {
          queue.current = [{ kind: 'reset' }];
        },
        onState: (next) => {
          setConnection(next);
          if (next !== 'reconnecting') setRetry(null);
          if (next !== 'failed') setFailure(null);
        },
      },
    });
    setClient(wire);
    wire.start();
    return () => {
      wire.stop();
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
      queue.current = [{ kind: 'reset' }];
      flush();
      setClient(null);
    };
  }, [url, protocols, diagnose]);

  return {
    state,
    connection,
    client,
    markAnswered: (requestId) => dispatchMany([{ kind: 'answered', requestId }]),
    failure,
    retry,
    tryAgain: () => client?.start(),
  };
}
