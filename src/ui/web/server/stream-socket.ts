import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { type AccessPolicy, checkAccess, WIRE_SUBPROTOCOL } from '../../http/access.js';
import { requestFacts } from '../../http/hono-access.js';
import type { FleetWeb } from './fleet/fleet-web.js';
import { openStreamHost, safeDecode } from './open-stream.js';
import type { SessionHost } from './session-host.js';
import type { WebContext } from './web-context.js';

/** The largest frame a client may send (a prompt with pasted text or images). */
export const MAX_FRAME_BYTES = 16 * 1024 * 1024;
/** A client that lets this much pile up unread is dropped (it may reconnect and replay). */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;

const STREAM_PATH = /^\/api\/sessions\/([^/]+)\/stream$/;

/**
 * The WebSocket endpoint `/api/sessions/{id}/stream`: checks access exactly as the REST routes do
 * (the token as an `Authorization` header or a `bearer.<token>` subprotocol beside `kimi-wire`),
 * opens the session's host (409 when another process holds the session) and then relays frames both
 * ways, one JSON-RPC message per frame. Refusals are HTTP answers with a JSON error body, before any
 * upgrade.
 */
export function streamUpgradeHandler(
  ctx: WebContext,
  policy: () => AccessPolicy,
): { onUpgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => void; close: () => void } {
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_FRAME_BYTES,
    // Never echo the bearer subprotocol: the client names `kimi-wire` and gets that one back.
    handleProtocols: (offered) => (offered.has(WIRE_SUBPROTOCOL) ? WIRE_SUBPROTOCOL : false),
  });

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const match = STREAM_PATH.exec(path);
      const facts = requestFacts(req);
      const decision = checkAccess(policy(), facts);
      if (!decision.ok) return refuse(socket, decision.status, decision.code, decision.message);
      if (match === null) return refuse(socket, 404, 'not_found', 'No WebSocket endpoint here.');
      if (
        facts.subprotocols?.some((p) => p.startsWith('bearer.')) &&
        !facts.subprotocols.includes(WIRE_SUBPROTOCOL)
      )
        return refuse(socket, 400, 'bad_subprotocol', `Offer the "${WIRE_SUBPROTOCOL}" subprotocol.`);
      const id = safeDecode(match[1]!);
      if (ctx.fleet !== undefined) {
        const fleet = ctx.fleet;
        const refusal = await fleet.refusal(id);
        if (refusal !== null) return refuse(socket, refusal.status, refusal.code, refusal.message);
        const sessionId = id as string;
        wss.handleUpgrade(req, socket, head, (ws) => relayFleet(ws, fleet, sessionId));
        return;
      }
      const opened = await openStreamHost(ctx, id, 'connect');
      if ('refusal' in opened) {
        const { status, code, message } = opened.refusal;
        return refuse(socket, status, code, message);
      }
      const { host } = opened;
      wss.handleUpgrade(req, socket, head, (ws) => relay(ws, host));
    })().catch(() => refuse(socket, 500, 'internal', 'The connection could not be set up.'));
  };

  return {
    onUpgrade,
    close: () => {
      for (const ws of wss.clients) ws.close(1001, 'Server shutting down');
      wss.close();
    },
  };
}

function relay(ws: WebSocket, host: SessionHost): void {
  const attached = host.attach({
    // The host going away under its clients (the session was deleted): they are told why, with a code.
    close: (code, reason) => ws.close(code, reason),
    send: (text) => {
      if (ws.readyState !== ws.OPEN) return;
      if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
        ws.close(1013, 'Client too slow; reconnect and replay');
        return;
      }
      ws.send(text);
    },
  });
  ws.on('message', (data, isBinary) => {
    if (isBinary) return ws.close(1003, 'Text frames only');
    attached.receive(data.toString());
  });
  ws.on('close', () => attached.detach());
  ws.on('error', () => ws.terminate());
}

/** Frames to a socket, dropped when the page reads too slowly (it reconnects and replays). */
function socketClient(ws: WebSocket): {
  send: (text: string) => void;
  close: (code: number, reason: string) => void;
} {
  return {
    send: (text) => {
      if (ws.readyState !== ws.OPEN) return;
      if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
        ws.close(1013, 'Client too slow; reconnect and replay');
        return;
      }
      ws.send(text);
    },
    close: (code, reason) => ws.close(code, reason),
  };
}

/** A fleet session's frames both ways, one JSON-RPC message per frame (fleet/fleet-session-relay.ts). */
function relayFleet(ws: WebSocket, fleet: FleetWeb, sessionId: string): void {
  const relay = fleet.relay(sessionId, socketClient(ws));
  ws.on('message', (data, isBinary) => {
    if (isBinary) return ws.close(1003, 'Text frames only');
    relay.receive(data.toString());
  });
  ws.on('close', () => relay.detach());
  ws.on('error', () => ws.terminate());
}

function refuse(socket: Duplex, status: number, code: string, message: string): void {
  if (socket.destroyed) return;
  const body = JSON.stringify({ error: { code, message } });
  const reason = {
    400: 'Bad Request',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'Not Found',
    409: 'Conflict',
    503: 'Service Unavailable',
  }[status];
  socket.end(
    `HTTP/1.1 ${status} ${reason ?? 'Internal Server Error'}\r\n` +
      'Content-Type: application/json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      (status === 401 ? 'WWW-Authenticate: Bearer\r\n' : '') +
      'Connection: close\r\n\r\n' +
      body,
  );
}
