import { credentialsFile, readTokens } from '../auth/token-store.js';
import type { Config } from '../config/schema.js';
import type { McpServers } from '../mcp/config.js';
import { SECRET_ENV_NAMES, SecretRegistry } from '../policy/secrets.js';

/**
 * Header and env names whose values are credentials. Only these count: an MCP server's
 * `NODE_ENV=production` or a provider's `Accept` header would otherwise be redacted everywhere and
 * refuse any tool call that mentions the word.
 */
const CREDENTIAL_NAME = /auth|key|token|secret|passw|cookie|credential|session/i;

/** The secrets of a session's config and environment: provider and service keys, their auth headers, our key variables. */
export function collectSecrets(
  config: Config,
  env: Readonly<Record<string, string | undefined>>,
): SecretRegistry {
  const secrets = new SecretRegistry();
  for (const [name, provider] of Object.entries(config.providers)) {
    secrets.add(provider.api_key, `providers.${name}.api_key`);
    addCredentials(secrets, provider.custom_headers, `providers.${name}.custom_headers`);
    addCredentials(secrets, provider.env, `providers.${name}.env`);
  }
  for (const [name, service] of Object.entries(config.services ?? {})) {
    if (!service) continue;
    secrets.add(service.api_key, `services.${name}.api_key`);
    addCredentials(secrets, service.custom_headers, `services.${name}.custom_headers`);
  }
  for (const name of SECRET_ENV_NAMES) secrets.add(env[name], `env ${name}`);
  return secrets;
}

/**
 * The stored tokens of every login the config refers to (`oauth = { key = … }` of a provider or a
 * service), whether or not this session uses it: a session, or a file it reads, may hold any of them.
 */
export async function addLoginSecrets(secrets: SecretRegistry, config: Config, home: string): Promise<void> {
  const refs = [
    ...Object.values(config.providers).map((provider) => provider.oauth),
    ...Object.values(config.services ?? {}).map((service) => service?.oauth),
  ];
  const keys = new Set(refs.flatMap((ref) => (ref ? [ref.key] : [])));
  for (const key of keys) {
    const tokens = await readTokens(credentialsFile(home, key));
    secrets.add(tokens?.access_token, `login ${key} access_token`);
    secrets.add(tokens?.refresh_token, `login ${key} refresh_token`);
  }
}

/** MCP servers' credential headers and env values (read when the MCP config is loaded). */
export function addMcpSecrets(secrets: SecretRegistry, servers: McpServers): void {
  for (const [name, server] of Object.entries(servers)) {
    switch (server.kind) {
      case 'stdio':
        addCredentials(secrets, server.env, `mcp ${name} env`);
        break;
      case 'remote':
        addCredentials(secrets, server.headers, `mcp ${name} headers`);
        if (server.auth?.type === 'bearer') secrets.add(server.auth.token, `mcp ${name} auth.token`);
        break;
    }
  }
}

function addCredentials(
  secrets: SecretRegistry,
  values: Readonly<Record<string, string>> | undefined,
  source: string,
): void {
  for (const [key, value] of Object.entries(values ?? {})) {
    if (CREDENTIAL_NAME.test(key))
      secrets.add(value.replace(/^(Bearer|Basic|Token)\s+/i, ''), `${source}.${key}`);
  }
}
