import type { ServerResponse } from 'node:http';
import { LoopbackServer, type RecordedRequest, startSSE, writeSSE } from './loopback-server.js';
import { answerTurn, type ScriptedTurn } from './scripted-llm-server.js';

export interface KimiCodeServerOptions {
  /** Tokens are `<prefix>at-N` / `<prefix>rt-N` (long ones count as secrets; default: none). */
  tokenPrefix?: string;
  /** Chat answers, in order (each after the token check); without them: one greeting, always. */
  chatTurns?: ScriptedTurn[];
}

/**
 * Kimi Code's side of the login, on loopback: RFC 8628 device authorization and token endpoints
 * (the first poll is "pending"), the models list, and a chat completions endpoint that takes only
 * the current access token (a 401 for any other).
 */
export class KimiCodeServer {
  private constructor(
    readonly http: LoopbackServer,
    readonly tokenPrefix: string,
    private readonly chatTurns: ScriptedTurn[] | null,
  ) {
    this.accessToken = this.accessTokenNumber(1);
  }
  polls = 0;
  refreshes: string[] = [];
  accessToken: string;
  /** Answers with 401 to every chat request until the token is refreshed. */
  expireOnNextChat = false;
  /** Refuses refreshes (`invalid_grant`), as for a login revoked on the server. */
  refuseRefresh = false;

  static async start(options: KimiCodeServerOptions = {}): Promise<KimiCodeServer> {
    const s = new KimiCodeServer(
      await LoopbackServer.start(),
      options.tokenPrefix ?? '',
      options.chatTurns ? [...options.chatTurns] : null,
    );
    s.http.fallback = (req, res) => {
      s.route(req, res);
    };
    return s;
  }

  get url(): string {
    return this.http.url;
  }

  accessTokenNumber(n: number): string {
    return `${this.tokenPrefix}at-${n}`;
  }

  refreshTokenNumber(n: number): string {
    return `${this.tokenPrefix}rt-${n}`;
  }

  /** The chat requests that carried a valid token. */
  get chatRequests(): RecordedRequest[] {
    return this.http.requests.filter((r) => r.path === '/coding/v1/chat/completions');
  }

  private route(req: RecordedRequest, res: ServerResponse): boolean {
    const form = new URLSearchParams(req.rawBody);
    const json = (status: number, body: unknown): boolean => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
      return true;
    };
    if (req.path === '/api/oauth/device_authorization') {
      if (form.get('client_id') !== '17e5f671-d194-4dfb-9706-5516cb48c098')
        return json(400, { error: 'invalid_client' });
      return json(200, {
        device_code: 'dev-1',
        user_code: 'WXYZ-1234',
        verification_uri: `${this.url}/device`,
        verification_uri_complete: `${this.url}/device?user_code=WXYZ-1234`,
        expires_in: 60,
        interval: 0,
      });
    }
    if (req.path === '/api/oauth/token') {
      if (form.get('grant_type') === 'refresh_token') {
        if (this.refuseRefresh) return json(400, { error: 'invalid_grant', error_description: 'revoked' });
        this.refreshes.push(form.get('refresh_token') ?? '');
        this.accessToken = this.accessTokenNumber(this.refreshes.length + 1);
        return json(200, {
          access_token: this.accessToken,
          refresh_token: this.refreshTokenNumber(this.refreshes.length + 1),
          expires_in: 3600,
        });
      }
      this.polls++;
      if (this.polls === 1) return json(400, { error: 'authorization_pending' });
      return json(200, {
        access_token: this.accessTokenNumber(1),
        refresh_token: this.refreshTokenNumber(1),
        expires_in: 3600,
        token_type: 'Bearer',
        scope: 'kimi-code',
      });
    }
    const authorized = () => req.headers.authorization === `Bearer ${this.accessToken}`;
    if (req.path === '/coding/v1/models') {
      if (!authorized()) return json(401, { error: { message: 'unauthorized' } });
      return json(200, {
        data: [{ id: 'kimi-for-coding', context_length: 131072, supports_reasoning: true }],
      });
    }
    if (req.path === '/coding/v1/chat/completions') {
      if (this.expireOnNextChat) {
        this.expireOnNextChat = false;
        // The server has moved on from this token; a refresh gets the next one.
        this.accessToken = 'revoked';
      }
      if (!authorized()) return json(401, { error: { message: 'token expired', type: 'auth' } });
      if (this.chatTurns) {
        const turn = this.chatTurns.shift() ?? { status: 500 };
        void answerTurn(turn, res);
        return true;
      }
      startSSE(res);
      const chunk = (delta: object, finish: string | null) => ({
        id: 'c',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'kimi-for-coding',
        choices: [{ index: 0, delta, finish_reason: finish }],
      });
      writeSSE(res, chunk({ role: 'assistant', content: 'Hello from Kimi Code.' }, null));
      writeSSE(res, chunk({}, 'stop'));
      res.end('data: [DONE]\n\n');
      return true;
    }
    return json(404, { error: 'not_found' });
  }
}
