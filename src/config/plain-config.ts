import { PROVIDER_TYPES } from '../kosong/providers/provider-types.js';
import { SANDBOX_MODES } from '../policy/sandbox-types.js';
import { renameLegacyLoopKeys } from './build-config-schema.js';
import { isHttpUrl } from './http-url.js';
import { MODEL_CAPABILITIES } from './model-capabilities.js';
import type { Config } from './schema.js';

/**
 * The config's fast path: a parsed config file that is plainly valid, turned into what the zod
 * schema (build-config-schema.ts) makes of it — its defaults filled in, unknown keys dropped —
 * without building the schema, which is most of what loading a config costs (~276 zod objects).
 * `undefined` for anything else: the loader then parses with the schema, which words the errors,
 * so a bad config reads exactly as before. It declines whatever it does not know to be valid
 * (`[[hooks]]`, `[permission]`, values of an unexpected kind): declining is always safe, and
 * plain-config.test.ts checks that what it accepts is what the schema makes, field by field.
 */
export function plainConfig(raw: unknown): Config | undefined {
  if (!isPlainTable(raw)) return undefined;
  // Left to the schema: hooks are loose objects (unknown keys kept) and [permission] a strict one.
  if (raw.permission !== undefined) return undefined;
  if (raw.hooks !== undefined && !(Array.isArray(raw.hooks) && raw.hooks.length === 0)) return undefined;
  const top = readTable(raw, TOP_LEVEL);
  const providers = readRecord(raw.providers, (value) => readTable(value, PROVIDER));
  const models = readRecord(raw.models, (value) => readTable(value, MODEL));
  // An absent table is filled in from its defaults (the schema's prefault); a null one is refused.
  const section = (key: string, fields: Fields) => readTable(raw[key] === undefined ? {} : raw[key], fields);
  const loopControl = readTable(
    renameLegacyLoopKeys(raw.loop_control === undefined ? {} : raw.loop_control),
    LOOP_CONTROL,
  );
  const sections = {
    background: section('background', BACKGROUND),
    subagents: section('subagents', SUBAGENTS),
    notifications: section('notifications', NOTIFICATIONS),
    services: section('services', SERVICES),
    mcp: section('mcp', MCP),
    sandbox: section('sandbox', SANDBOX),
    checkpoints: section('checkpoints', CHECKPOINTS),
    trust: section('trust', TRUST),
  };
  if (top === undefined || providers === undefined || models === undefined || loopControl === undefined)
    return undefined;
  for (const section of Object.values(sections)) if (section === undefined) return undefined;
  // The schema's key order, as its parse writes them (readTable keeps its fields' order). The
  // tables are untyped here: plain-config.test.ts holds them to the schema's output.
  const config = {
    ...top,
    providers,
    models,
    loop_control: loopControl,
    ...sections,
    hooks: [],
    permission: { rules: [] },
  };
  return config as unknown as Config;
}

/** What one key of a table must hold; `default` fills it in when absent, `optional` leaves it out. */
type Field =
  | { kind: 'string'; minLength?: number; default?: string; optional?: true }
  | { kind: 'url'; default: '' }
  | { kind: 'boolean'; default: boolean }
  | { kind: 'enum'; values: readonly string[]; default?: string; optional?: true }
  | { kind: 'enums'; values: readonly string[]; optional: true }
  | { kind: 'strings'; minLength: number; default: readonly [] }
  | { kind: 'stringMap'; optional: true }
  | {
      kind: 'number';
      int: boolean;
      min?: number;
      above?: number;
      max?: number;
      default?: number;
      optional?: true;
    }
  | { kind: 'table'; fields: Fields; optional?: true; prefault?: true };
type Fields = Readonly<Record<string, Field>>;

const int = (min: number, value: number, max?: number): Field => ({
  kind: 'number',
  int: true,
  min,
  ...(max !== undefined && { max }),
  default: value,
});
const flag = (value: boolean): Field => ({ kind: 'boolean', default: value });
const text = (value = ''): Field => ({ kind: 'string', default: value });

const TOP_LEVEL: Fields = {
  default_model: text(),
  default_thinking: flag(false),
  default_yolo: flag(false),
  skip_afk_prompt_injection: flag(false),
  default_plan_mode: flag(false),
  default_editor: text(),
  theme: { kind: 'enum', values: ['dark', 'light'], default: 'dark' },
  show_thinking_stream: flag(true),
  merge_all_available_skills: flag(true),
  extra_skill_dirs: { kind: 'strings', minLength: 0, default: [] },
  telemetry: flag(true),
};

const OAUTH: Field = {
  kind: 'table',
  optional: true,
  fields: {
    storage: { kind: 'enum', values: ['file', 'keyring'], default: 'file' },
    key: { kind: 'string' },
  },
};

const PROVIDER: Fields = {
  type: { kind: 'enum', values: PROVIDER_TYPES },
  base_url: { kind: 'url', default: '' },
  api_key: text(),
  env: { kind: 'stringMap', optional: true },
  custom_headers: { kind: 'stringMap', optional: true },
  reasoning_key: { kind: 'string', optional: true },
  oauth: OAUTH,
};

const price = (optional?: true): Field => ({
  kind: 'number',
  int: false,
  min: 0,
  ...(optional && { optional }),
});
const MODEL: Fields = {
  provider: { kind: 'string', minLength: 1 },
  model: { kind: 'string' },
  max_context_size: { kind: 'number', int: true, above: 0 },
  capabilities: { kind: 'enums', values: MODEL_CAPABILITIES, optional: true },
  display_name: { kind: 'string', optional: true },
  price: {
    kind: 'table',
    optional: true,
    fields: { input: price(), output: price(), cache_read: price(true) },
  },
};

const LOOP_CONTROL: Fields = {
  max_steps_per_turn: int(1, 1000),
  max_retries_per_step: int(1, 3),
  max_ralph_iterations: int(-1, 0),
  reserved_context_size: int(1000, 50_000),
  compaction_trigger_ratio: { kind: 'number', int: false, min: 0.5, max: 0.99, default: 0.85 },
  stall_timeout_s: { kind: 'number', int: false, above: 0, default: 120 },
};

const BACKGROUND: Fields = {
  max_running_tasks: int(1, 4),
  read_max_bytes: int(1, 30_000),
  notification_tail_lines: int(0, 20),
  notification_tail_chars: int(0, 3000),
  wait_poll_interval_ms: int(1, 500),
  worker_heartbeat_interval_ms: int(1, 5000),
  worker_stale_after_ms: int(1, 15_000),
  kill_grace_period_ms: int(0, 2000),
  keep_alive_on_exit: flag(false),
  agent_task_timeout_s: int(60, 900),
  print_wait_ceiling_s: int(1, 3600),
};

const SUBAGENTS: Fields = { max_concurrency: int(1, 4, 64) };
const NOTIFICATIONS: Fields = { claim_stale_after_ms: int(1, 15_000) };

const SERVICE: Field = {
  kind: 'table',
  optional: true,
  fields: {
    base_url: { kind: 'string' },
    api_key: text(),
    custom_headers: { kind: 'stringMap', optional: true },
    oauth: OAUTH,
  },
};
const SERVICES: Fields = { moonshot_search: SERVICE, moonshot_fetch: SERVICE };

const MCP: Fields = {
  client: { kind: 'table', prefault: true, fields: { tool_call_timeout_ms: int(1, 60_000) } },
};

const SANDBOX: Fields = {
  mode: { kind: 'enum', values: SANDBOX_MODES, default: 'workspace-write' },
  network: flag(false),
  keep_env: { kind: 'strings', minLength: 1, default: [] },
  hide_workspace_secrets: flag(true),
  scan_workspace_tokens: flag(true),
};

const CHECKPOINTS: Fields = {
  enabled: flag(true),
  max_file_mib: { kind: 'number', int: false, above: 0, max: 1024, default: 10 },
  max_age_days: { kind: 'number', int: false, above: 0, default: 30 },
  max_total_mib: { kind: 'number', int: false, above: 0, default: 1024 },
};

const TRUST: Fields = { folders: { kind: 'strings', minLength: 1, default: [] } };

/** For plain-config.test.ts: every table the fast path reads, by the schema's key path. */
export const PLAIN_CONFIG_TABLES = {
  '': TOP_LEVEL,
  'providers.*': PROVIDER,
  'models.*': MODEL,
  loop_control: LOOP_CONTROL,
  background: BACKGROUND,
  subagents: SUBAGENTS,
  notifications: NOTIFICATIONS,
  services: SERVICES,
  mcp: MCP,
  sandbox: SANDBOX,
  checkpoints: CHECKPOINTS,
  trust: TRUST,
} as const;

type Table = Record<string, unknown>;

/** A table as TOML and JSON make them: a plain object, with no key that would set its prototype. */
function isPlainTable(value: unknown): value is Table {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && !Object.hasOwn(value, '__proto__');
}

/** The table's known keys, checked and defaulted, in the fields' order; unknown keys dropped. */
function readTable(raw: unknown, fields: Fields): Table | undefined {
  if (!isPlainTable(raw)) return undefined;
  const out: Table = {};
  for (const key in fields) {
    const field = fields[key]!;
    const value = raw[key];
    if (value === undefined) {
      if ('default' in field && field.default !== undefined)
        out[key] = Array.isArray(field.default) ? [] : field.default;
      else if (field.kind === 'table' && field.prefault) {
        const filled = readTable({}, field.fields);
        if (filled === undefined) return undefined;
        out[key] = filled;
      } else if (!('optional' in field && field.optional)) return undefined;
      continue;
    }
    const read = readValue(value, field);
    if (read === undefined) return undefined;
    out[key] = read;
  }
  return out;
}

function readValue(value: unknown, field: Field): unknown {
  switch (field.kind) {
    case 'string':
      return typeof value === 'string' && value.length >= (field.minLength ?? 0) ? value : undefined;
    case 'url':
      return typeof value === 'string' && (value === '' || isHttpUrl(value)) ? value : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? value : undefined;
    case 'enum':
      return typeof value === 'string' && field.values.includes(value) ? value : undefined;
    case 'enums':
      return Array.isArray(value) &&
        value.every((item) => typeof item === 'string' && field.values.includes(item))
        ? [...value]
        : undefined;
    case 'strings':
      return Array.isArray(value) &&
        value.every((item) => typeof item === 'string' && item.length >= field.minLength)
        ? [...value]
        : undefined;
    case 'stringMap':
      return readRecord(value, (item) => (typeof item === 'string' ? item : undefined));
    case 'number':
      return isNumberWithin(value, field) ? value : undefined;
    case 'table':
      return readTable(value, field.fields);
    default:
      return assertNever(field);
  }
}

function isNumberWithin(value: unknown, field: Extract<Field, { kind: 'number' }>): value is number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return false;
  if (field.int && !Number.isSafeInteger(value)) return false;
  if (field.min !== undefined && value < field.min) return false;
  if (field.above !== undefined && value <= field.above) return false;
  return field.max === undefined || value <= field.max;
}

/** A table of names to values each read by `read`; absent is empty. */
function readRecord(raw: unknown, read: (value: unknown) => unknown): Table | undefined {
  if (raw === undefined) return {};
  if (!isPlainTable(raw)) return undefined;
  const out: Table = {};
  for (const key of Object.keys(raw)) {
    const value = read(raw[key]);
    if (value === undefined) return undefined;
    out[key] = value;
  }
  return out;
}

function assertNever(value: never): never {
  throw new Error(`unexpected field ${JSON.stringify(value)}`);
}
