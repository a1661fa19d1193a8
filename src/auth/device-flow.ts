import { setTimeout as delay } from 'node:timers/promises';
import { z } from 'zod';
import { builtOnFirstUse } from '../util/built-on-first-use.js';
import { VERSION } from '../version.js';
import { KIMI_CODE_CLIENT_ID, type KimiCodeEndpoints } from './kimi-code-endpoints.js';
import type { StoredTokens } from './token-store.js';

/** A login or refresh that did not work; the message is for the user and carries no token. */
export class OAuthError extends Error {
  override name = 'OAuthError';
  constructor(
    message: string,
    /** The OAuth error code (`invalid_grant`, `access_denied`…), when the server sent one. */
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

/**
 * The answers' schemas, built on first use: a session signed in with an API key never runs the device
 * flow, and making them at load was part of every start's time to the first model request.
 */
function buildSchemas() {
  return {
    deviceAuthorization: z.object({
      device_code: z.string().min(1),
      user_code: z.string().min(1),
      verification_uri: z.string().min(1),
      verification_uri_complete: z.string().optional(),
      expires_in: z.number().positive().default(600),
      interval: z.number().nonnegative().default(5),
    }),
    token: z.object({
      access_token: z.string().min(1),
      refresh_token: z.string().optional(),
      expires_in: z.number().nonnegative().optional(),
      scope: z.string().optional(),
      token_type: z.string().optional(),
    }),
    error: z.object({ error: z.string(), error_description: z.string().optional() }),
  };
}

const schemas = builtOnFirstUse(buildSchemas);

export type DeviceAuthorization = z.output<ReturnType<typeof buildSchemas>['deviceAuthorization']>;

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
/** RFC 8628 §3.5: `slow_down` adds 5 seconds to the polling interval. */
const SLOW_DOWN_STEP_S = 5;

/** RFC 8628 §3.1: asks for a device code and the URL where the user approves it. */
export async function requestDeviceAuthorization(
  endpoints: KimiCodeEndpoints,
  signal?: AbortSignal,
): Promise<DeviceAuthorization> {
  const body = await postForm(
    endpoints,
    endpoints.deviceAuthorization,
    { client_id: KIMI_CODE_CLIENT_ID },
    signal,
  );
  if (!body.ok) throw new OAuthError(`The login server refused the device request: ${body.error}`, body.code);
  const parsed = schemas().deviceAuthorization.safeParse(body.value);
  if (!parsed.success) throw new OAuthError('The login server sent a malformed device authorization.');
  return parsed.data;
}

/**
 * RFC 8628 §3.4: polls the token endpoint until the user approved (tokens), refused or let the
 * code expire (OAuthError). `onPending` hears each "not yet".
 */
export async function pollForTokens(
  endpoints: KimiCodeEndpoints,
  device: DeviceAuthorization,
  options: { signal?: AbortSignal | undefined; onPending?: (() => void) | undefined } = {},
): Promise<StoredTokens> {
  const deadline = Date.now() + device.expires_in * 1000;
  let intervalS = device.interval;
  for (;;) {
    const body = await postForm(
      endpoints,
      endpoints.token,
      { client_id: KIMI_CODE_CLIENT_ID, device_code: device.device_code, grant_type: DEVICE_GRANT },
      options.signal,
    );
    if (body.ok) return toStoredTokens(body.value);
    switch (body.code) {
      case 'authorization_pending':
        options.onPending?.();
        break;
      case 'slow_down':
        intervalS += SLOW_DOWN_STEP_S;
        break;
      case 'expired_token':
        throw new OAuthError(
          'The login code expired before it was approved. Run the login again.',
          body.code,
        );
      case 'access_denied':
        throw new OAuthError('The login was denied.', body.code);
      default:
        throw new OAuthError(`The login failed: ${body.error}`, body.code);
    }
    if (Date.now() + intervalS * 1000 >= deadline) {
      throw new OAuthError(
        'The login code expired before it was approved. Run the login again.',
        'expired_token',
      );
    }
    await delay(intervalS * 1000, undefined, { signal: options.signal });
  }
}

/** Trades the refresh token for new tokens (a server that sends no new refresh token keeps the old). */
export async function refreshTokens(
  endpoints: KimiCodeEndpoints,
  current: StoredTokens,
  signal?: AbortSignal,
): Promise<StoredTokens> {
  if (!current.refresh_token)
    throw new OAuthError('The login has no refresh token. Run `kimi-ts login` again.');
  const body = await postForm(
    endpoints,
    endpoints.token,
    { client_id: KIMI_CODE_CLIENT_ID, grant_type: 'refresh_token', refresh_token: current.refresh_token },
    signal,
  );
  if (!body.ok) {
    throw new OAuthError(
      `The login could not be refreshed (${body.error}). Run \`kimi-ts login\` again.`,
      body.code,
    );
  }
  const next = toStoredTokens(body.value);
  return next.refresh_token ? next : { ...next, refresh_token: current.refresh_token };
}

function toStoredTokens(value: unknown): StoredTokens {
  const parsed = schemas().token.safeParse(value);
  if (!parsed.success) throw new OAuthError('The login server sent a malformed token response.');
  const { access_token, refresh_token, expires_in, scope, token_type } = parsed.data;
  return {
    access_token,
    refresh_token: refresh_token ?? '',
    expires_in: expires_in ?? 0,
    expires_at: expires_in ? Date.now() / 1000 + expires_in : 0,
    scope: scope ?? '',
    token_type: token_type ?? 'Bearer',
  };
}

type FormAnswer = { ok: true; value: unknown } | { ok: false; code: string | null; error: string };

async function postForm(
  endpoints: KimiCodeEndpoints,
  url: string,
  form: Record<string, string>,
  signal?: AbortSignal,
): Promise<FormAnswer> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        'user-agent': `kimi-ts/${VERSION}`,
        ...endpoints.headers,
      },
      body: new URLSearchParams(form).toString(),
      signal: signal ?? null,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new OAuthError(`Could not reach the login server ${new URL(url).origin}: ${describe(error)}`);
  }
  const text = await response.text();
  let value: unknown = null;
  try {
    value = JSON.parse(text);
  } catch {
    // Not JSON: told below by status.
  }
  if (response.ok) return { ok: true, value };
  const error = schemas().error.safeParse(value);
  if (error.success) {
    const { error: code, error_description: description } = error.data;
    return { ok: false, code, error: description ? `${code}: ${description}` : code };
  }
  return { ok: false, code: null, error: `HTTP ${response.status}` };
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}
