import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { PLAIN_CONFIG_TABLES, plainConfig } from './plain-config.js';
import {
  backgroundSchema,
  checkpointsSchema,
  configSchema,
  loopControlSchema,
  mcpSchema,
  modelSchema,
  notificationsSchema,
  providerSchema,
  sandboxSchema,
  servicesSchema,
  subagentsSchema,
  trustSchema,
} from './schema.js';

/** The fast path agrees with the schema: it declines what the schema rejects, and makes what it makes. */
function expectSameAsSchema(raw: unknown, mustAccept = true): void {
  const bySchema = configSchema.safeParse(raw);
  const plain = plainConfig(raw);
  if (!bySchema.success) {
    expect(plain, JSON.stringify(raw)).toBeUndefined();
    return;
  }
  if (mustAccept) expect(plain, JSON.stringify(raw)).toBeDefined();
  if (plain === undefined) return;
  expect(plain).toStrictEqual(bySchema.data);
  // The same key order too: a config printed or saved reads the same.
  expect(JSON.stringify(plain)).toBe(JSON.stringify(bySchema.data));
}

const provider = { type: 'openai_legacy', base_url: 'http://127.0.0.1:1/v1', api_key: 'k' };
const model = { provider: 'p', model: 'm', max_context_size: 100_000 };
const base = { default_model: 'm', providers: { p: provider }, models: { m: model } };

/** Where each table of the fast path sits in a config, to put one value into it. */
function withValue(table: string, key: string, value: unknown): Record<string, unknown> {
  const set = (row: Record<string, unknown>) => {
    const copy = { ...row };
    if (value === undefined) delete copy[key];
    else copy[key] = value;
    return copy;
  };
  switch (table) {
    case '':
      return set(base);
    case 'providers.*':
      return { ...base, providers: { p: set(provider) } };
    case 'models.*':
      return { ...base, models: { m: set(model) } };
    default:
      return { ...base, [table]: set({}) };
  }
}

const PROBES: unknown[] = [
  undefined,
  null,
  true,
  false,
  0,
  -0,
  -1,
  1,
  0.5,
  0.99,
  1.5,
  59,
  60,
  64,
  65,
  999,
  1000,
  1024,
  1025,
  2 ** 53,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  '',
  'x',
  'http://h',
  'https://api.moonshot.ai/v1',
  'ftp://h',
  'dark',
  'light',
  'file',
  'keyring',
  'thinking',
  'openai_legacy',
  'read-only',
  [],
  ['x'],
  [''],
  [1],
  ['thinking', 'image_in'],
  ['nope'],
  {},
  { a: 'b' },
  { a: 1 },
  { key: 'k' },
  { storage: 'keyring', key: 'k' },
  { storage: 'x', key: 'k' },
  { input: 1, output: 2 },
  { input: 1, output: 2, cache_read: 0.5 },
  { input: -1, output: 2 },
  { tool_call_timeout_ms: 0 },
  { tool_call_timeout_ms: 5 },
  { base_url: 'u' },
  { base_url: 'u', api_key: 'k', custom_headers: { h: 'v' }, oauth: { key: 'k' } },
  new Date(0),
];

describe('plainConfig', () => {
  it('reads every key the schema has, table by table', () => {
    const keysOf = (schema: { shape: Record<string, unknown> }) => Object.keys(schema.shape);
    const loopShape = (loopControlSchema as unknown as { out: z.ZodObject }).out;
    const tables: Record<keyof typeof PLAIN_CONFIG_TABLES, string[]> = {
      '': keysOf(configSchema).filter((key) => {
        const sections = ['providers', 'models', 'hooks', 'permission'];
        return !sections.includes(key) && !(key in PLAIN_CONFIG_TABLES);
      }),
      'providers.*': keysOf(providerSchema),
      'models.*': keysOf(modelSchema),
      loop_control: keysOf(loopShape),
      background: keysOf(backgroundSchema),
      subagents: keysOf(subagentsSchema),
      notifications: keysOf(notificationsSchema),
      services: keysOf(servicesSchema),
      mcp: keysOf(mcpSchema),
      sandbox: keysOf(sandboxSchema),
      checkpoints: keysOf(checkpointsSchema),
      trust: keysOf(trustSchema),
    };
    for (const [table, keys] of Object.entries(tables)) {
      expect(Object.keys(PLAIN_CONFIG_TABLES[table as keyof typeof tables]), table).toEqual(keys);
    }
  });

  it('agrees with the schema on each value of each key', () => {
    let accepted = 0;
    for (const [table, fields] of Object.entries(PLAIN_CONFIG_TABLES)) {
      for (const key of Object.keys(fields)) {
        for (const value of PROBES) {
          const raw = withValue(table, key, value);
          // The schema takes any object for a table, a TOML date too; the fast path leaves it to it.
          expectSameAsSchema(raw, !(value instanceof Date));
          if (plainConfig(raw) !== undefined) accepted++;
        }
      }
    }
    // Most probes are of the wrong kind for a key; the fast path still takes hundreds of them.
    expect(accepted).toBeGreaterThan(400);
  });

  it('agrees with the schema on each value of each table itself', () => {
    const keys = Object.keys(configSchema.shape);
    for (const key of keys) for (const value of PROBES) expectSameAsSchema({ ...base, [key]: value }, false);
  });

  it('takes whole configs as the schema makes them', () => {
    expectSameAsSchema({});
    expectSameAsSchema(base);
    // Kimi CLI's config after a login, with keys kimi-ts does not know.
    expectSameAsSchema({
      default_model: 'kimi-for-coding',
      default_thinking: true,
      providers: {
        'managed:kimi-code': {
          type: 'kimi',
          base_url: 'https://api.kimi.com/coding/v1',
          api_key: '',
          oauth: { storage: 'file', key: 'oauth/kimi-code' },
        },
      },
      models: {
        'kimi-for-coding': {
          provider: 'managed:kimi-code',
          model: 'kimi-for-coding',
          max_context_size: 262_144,
          capabilities: ['thinking', 'image_in'],
        },
      },
      loop_control: { max_steps_per_run: 50, max_retries_per_step: 3, reserved_context_size: 50_000 },
      services: {
        moonshot_search: { base_url: 'https://api.kimi.com/coding/v1/search', api_key: '' },
        moonshot_fetch: { base_url: 'https://api.kimi.com/coding/v1/fetch', api_key: '' },
      },
      mcp: { client: { tool_call_timeout_ms: 60_000 } },
      hooks: [],
      newer_kimi_cli_key: { anything: 1 },
    });
    // The older name loses to the newer when both are there, as in the schema.
    expectSameAsSchema({ loop_control: { max_steps_per_run: 5, max_steps_per_turn: 7 } });
  });

  it('leaves hooks, [permission] and anything odd to the schema', () => {
    const declined = [
      { hooks: [{ event: 'Stop', command: 'true' }] },
      { permission: { rules: [] } },
      JSON.parse('{"__proto__": {"default_yolo": true}}'),
      JSON.parse('{"providers": {"__proto__": {"type": "kimi"}}}'),
      [],
      null,
      'default_model = "m"',
      new Map(),
    ];
    for (const raw of declined) {
      expect(plainConfig(raw), JSON.stringify(raw)).toBeUndefined();
      expectSameAsSchema(raw, false);
    }
  });
});
