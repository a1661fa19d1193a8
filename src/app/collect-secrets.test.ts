import { describe, expect, it } from 'vitest';
import { configSchema } from '../config/schema.js';
import type { McpServers } from '../mcp/config.js';
import { addMcpSecrets, collectSecrets } from './collect-secrets.js';

describe('collectSecrets', () => {
  const config = configSchema.parse({
    providers: {
      kimi: {
        type: 'kimi',
        base_url: 'https://api.example.com/v1',
        api_key: 'sk-provider-key-1234',
        custom_headers: { Authorization: 'Bearer header-token-5678', Accept: 'application/json' },
      },
    },
    services: { moonshot_search: { base_url: 'https://search.example.com', api_key: 'search-key-9012' } },
  });

  it('takes provider and service keys, credential headers and our key variables, and nothing else', () => {
    const secrets = collectSecrets(config, { KIMI_API_KEY: 'env-kimi-key-3456', HOME: '/home/someone' });
    const text = secrets.redact(
      'sk-provider-key-1234 header-token-5678 search-key-9012 env-kimi-key-3456 application/json https://api.example.com/v1 /home/someone',
    );
    expect(text).toBe(
      '[redacted] [redacted] [redacted] [redacted] application/json https://api.example.com/v1 /home/someone',
    );
    expect(secrets.findIn('x header-token-5678')).toEqual({
      source: 'providers.kimi.custom_headers.Authorization',
    });
  });

  it("adds MCP servers' credential headers and env values, not their other settings", () => {
    const secrets = collectSecrets(configSchema.parse({}), {});
    const servers: McpServers = {
      remote: {
        kind: 'remote',
        transport: 'auto',
        url: 'https://mcp.example.com',
        headers: { 'X-Api-Key': 'mcp-header-key-1' },
        auth: { type: 'bearer', token: 'mcp-bearer-token-3' },
      },
      local: {
        kind: 'stdio',
        command: 'server',
        args: [],
        env: { GITHUB_TOKEN: 'ghp_local_token_2', NODE_ENV: 'production' },
      },
    };
    addMcpSecrets(secrets, servers);
    expect(secrets.redact('mcp-header-key-1 mcp-bearer-token-3 ghp_local_token_2 production')).toBe(
      '[redacted] [redacted] [redacted] production',
    );
  });
});
