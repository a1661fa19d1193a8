import type { Env } from '../config/home.js';
import { kimiCodeDeviceHeaders } from './device-headers.js';

/** The OAuth client of Kimi Code (Kimi CLI's `kimi login` uses the same public client id). */
export const KIMI_CODE_CLIENT_ID = '17e5f671-d194-4dfb-9706-5516cb48c098';
const DEFAULT_OAUTH_HOST = 'https://auth.kimi.com';
const DEFAULT_API_BASE_URL = 'https://api.kimi.com/coding/v1';

/** The provider `kimi-ts login` writes into the config, and the key its tokens are stored under. */
export const MANAGED_PROVIDER = 'managed:kimi-code';
export const MANAGED_MODEL_PREFIX = 'kimi-code/';
export const MANAGED_OAUTH_KEY = 'oauth/kimi-code';

export interface KimiCodeEndpoints {
  deviceAuthorization: string;
  token: string;
  /** The OpenAI-compatible API the managed provider talks to (models are listed at `/models`). */
  apiBaseUrl: string;
  /** Sent with every request to the OAuth server (Kimi CLI's `X-Msh-*` device headers). */
  headers: Record<string, string>;
}

/**
 * Where the login goes: Kimi Code's servers, or others named by `KIMI_CODE_OAUTH_HOST` (or, as in
 * Kimi CLI, `KIMI_OAUTH_HOST`) and `KIMI_CODE_BASE_URL` (a staging server, or the loopback server
 * of the tests). Checked against kimi-cli `src/kimi_cli/auth/oauth.py` and `auth/platforms.py`.
 */
export function kimiCodeEndpoints(env: Env, home: string): KimiCodeEndpoints {
  const host = (
    env.KIMI_CODE_OAUTH_HOST?.trim() ||
    env.KIMI_OAUTH_HOST?.trim() ||
    DEFAULT_OAUTH_HOST
  ).replace(/\/+$/, '');
  return {
    deviceAuthorization: `${host}/api/oauth/device_authorization`,
    token: `${host}/api/oauth/token`,
    apiBaseUrl: (env.KIMI_CODE_BASE_URL?.trim() || DEFAULT_API_BASE_URL).replace(/\/+$/, ''),
    headers: kimiCodeDeviceHeaders(home),
  };
}
