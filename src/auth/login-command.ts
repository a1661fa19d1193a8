import type { Env } from '../config/home.js';
import { defaultConfigFile } from '../config/home.js';
import { OAuthError, pollForTokens, requestDeviceAuthorization } from './device-flow.js';
import { type KimiCodeEndpoints, kimiCodeEndpoints, MANAGED_OAUTH_KEY } from './kimi-code-endpoints.js';
import {
  type ManagedModel,
  parseModelsList,
  removeManagedConfig,
  writeManagedConfig,
} from './managed-config.js';
import { credentialsFile, deleteTokens, writeTokens } from './token-store.js';

/** One step of a login or logout: Kimi CLI's `OAuthEvent`, one JSON object per line with `--json`. */
export interface AuthEvent {
  type: 'info' | 'verification_url' | 'waiting' | 'success' | 'error';
  message: string;
  data?: Record<string, unknown> | undefined;
}

export interface AuthCommandOptions {
  home: string;
  env: Env;
  json: boolean;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  signal?: AbortSignal | undefined;
}

function emitter(options: AuthCommandOptions): (event: AuthEvent) => void {
  return (event) => {
    if (options.json) {
      options.stdout(
        `${JSON.stringify({ type: event.type, message: event.message, data: event.data ?? null })}\n`,
      );
    } else if (event.type === 'error') options.stderr(`${event.message}\n`);
    else options.stdout(`${event.message}\n`);
  };
}

/**
 * `kimi-ts login [--json]`: Kimi Code's OAuth device login (RFC 8628). Shows the URL and code to
 * approve, waits for the approval, stores the tokens (0600, `<home>/credentials/kimi-code.json`),
 * lists the models and writes the managed provider into `<home>/config.toml`. Exit code 0 or 1.
 */
export async function runLogin(options: AuthCommandOptions): Promise<number> {
  const emit = emitter(options);
  const endpoints = kimiCodeEndpoints(options.env, options.home);
  try {
    const device = await requestDeviceAuthorization(endpoints, options.signal);
    const url = device.verification_uri_complete ?? device.verification_uri;
    emit({
      type: 'verification_url',
      message: `Open ${url} and confirm the code ${device.user_code} to log in.`,
      data: { verification_url: url, user_code: device.user_code, expires_in: device.expires_in },
    });
    let told = false;
    const tokens = await pollForTokens(endpoints, device, {
      signal: options.signal,
      onPending: () => {
        if (told) return;
        told = true;
        emit({ type: 'waiting', message: 'Waiting for the login to be approved…' });
      },
    });
    await writeTokens(credentialsFile(options.home, MANAGED_OAUTH_KEY), tokens);
    const models = await listModels(endpoints, tokens.access_token, options.signal);
    const configFile = defaultConfigFile(options.home);
    const defaultModel = await writeManagedConfig(configFile, endpoints.apiBaseUrl, models);
    emit({
      type: 'success',
      message: `Logged in. Default model: ${defaultModel} (config: ${configFile}).`,
      data: { default_model: defaultModel, models: models.map((m) => m.id), config_file: configFile },
    });
    return 0;
  } catch (error) {
    emit({ type: 'error', message: `Login failed: ${describeError(error)}` });
    return 1;
  }
}

/** `kimi-ts logout [--json]`: forgets the stored tokens and the managed provider of the config. */
export async function runLogout(options: AuthCommandOptions): Promise<number> {
  const emit = emitter(options);
  try {
    const hadTokens = await deleteTokens(credentialsFile(options.home, MANAGED_OAUTH_KEY));
    const hadConfig = await removeManagedConfig(defaultConfigFile(options.home));
    emit({
      type: 'success',
      message: hadTokens || hadConfig ? 'Logged out.' : 'Not logged in; nothing to do.',
    });
    return 0;
  } catch (error) {
    emit({ type: 'error', message: `Logout failed: ${describeError(error)}` });
    return 1;
  }
}

async function listModels(
  endpoints: KimiCodeEndpoints,
  accessToken: string,
  signal?: AbortSignal,
): Promise<ManagedModel[]> {
  const url = `${endpoints.apiBaseUrl}/models`;
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { authorization: `Bearer ${accessToken}` },
      signal: signal ?? null,
    });
  } catch (error) {
    throw new OAuthError(`Could not list the models at ${url}: ${describeError(error)}`);
  }
  const models = response.ok ? parseModelsList(await response.json().catch(() => null)) : null;
  if (!models || models.length === 0) {
    throw new OAuthError(`Could not list the models at ${url} (HTTP ${response.status}).`);
  }
  return models;
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The CLI's entry: `login` or `logout` with this process's home, environment and streams. */
export async function runAuthCommand(which: 'login' | 'logout', json: boolean): Promise<number> {
  const { kimiTsHome } = await import('../config/home.js');
  const options: AuthCommandOptions = {
    home: kimiTsHome(process.env),
    env: process.env,
    json,
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  };
  return which === 'login' ? runLogin(options) : runLogout(options);
}
