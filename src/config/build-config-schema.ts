import { z } from 'zod';
import { PROVIDER_TYPES } from '../kosong/providers/provider-types.js';
import { permissionSectionSchema } from '../policy/permission-rules-file.js';
import { SANDBOX_MODES } from '../policy/sandbox-types.js';
import { isHttpUrl } from './http-url.js';
import { MODEL_CAPABILITIES } from './model-capabilities.js';

/**
 * Builds the config file's zod schemas (schema.ts holds them, built at its load, and says what they
 * mean). A function, so that the path to a print run's first model request builds none of them:
 * zod made ~276 objects for them (~3 ms of CPU on Node 22, and garbage to collect), while the
 * loader takes a config that is plainly valid without them (plain-config.ts) and builds them, once,
 * for one that is not, so that zod words its errors.
 */
export function buildConfigSchemas() {
  const int = () => z.number().int();

  const stringMap = z.record(z.string(), z.string());

  /** An endpoint: empty (filled in later, or not needed), or an absolute http(s) URL. */
  const endpointUrl = z
    .string()
    .default('')
    .refine((value) => value === '' || isHttpUrl(value), {
      message: 'must be an http:// or https:// URL, e.g. "https://api.moonshot.ai/v1"',
    });

  const oauthRefSchema = z.object({
    storage: z.enum(['file', 'keyring']).default('file'),
    key: z.string(),
  });

  const providerSchema = z.object({
    type: z.enum(PROVIDER_TYPES),
    // Kimi CLI writes these even when empty (OAuth providers, test providers); an empty value is
    // reported when the model is resolved, not here.
    base_url: endpointUrl,
    api_key: z.string().default(''),
    env: stringMap.optional(),
    custom_headers: stringMap.optional(),
    reasoning_key: z.string().optional(),
    oauth: oauthRefSchema.optional(),
  });

  const modelSchema = z.object({
    provider: z.string().min(1),
    // Empty is accepted as Kimi CLI accepts it: the model is then "not set" (each turn says so; wire
    // mode still starts and answers each prompt with -32001), not a config that stops every command.
    model: z.string(),
    max_context_size: z.number().int().positive(),
    capabilities: z.array(z.enum(MODEL_CAPABILITIES)).optional(),
    display_name: z.string().optional(),
    /** kimi-ts extension: US dollars per million tokens, for the cost the terminal UI shows. */
    price: z
      .object({
        input: z.number().nonnegative(),
        output: z.number().nonnegative(),
        /** Input read from the provider's cache (default: the input price). */
        cache_read: z.number().nonnegative().optional(),
      })
      .optional(),
  });

  const loopControlSchema = z.preprocess(
    renameLegacyLoopKeys,
    z.object({
      max_steps_per_turn: int().min(1).default(1000),
      /** Total attempts per step, the first included. */
      max_retries_per_step: int().min(1).default(3),
      max_ralph_iterations: int().min(-1).default(0),
      reserved_context_size: int().min(1000).default(50_000),
      compaction_trigger_ratio: z.number().min(0.5).max(0.99).default(0.85),
      /** kimi-ts: seconds the model may stay silent before its call is abandoned (and retried). */
      stall_timeout_s: z.number().positive().default(120),
    }),
  );

  const backgroundSchema = z.object({
    max_running_tasks: int().min(1).default(4),
    read_max_bytes: int().min(1).default(30_000),
    notification_tail_lines: int().min(0).default(20),
    notification_tail_chars: int().min(0).default(3000),
    wait_poll_interval_ms: int().min(1).default(500),
    worker_heartbeat_interval_ms: int().min(1).default(5000),
    worker_stale_after_ms: int().min(1).default(15_000),
    kill_grace_period_ms: int().min(0).default(2000),
    keep_alive_on_exit: z.boolean().default(false),
    agent_task_timeout_s: int().min(60).default(900),
    print_wait_ceiling_s: int().min(1).default(3600),
  });

  /** kimi-ts: `[subagents]`. `max_concurrency` is the hard cap of subagents one swarm runs at once. */
  const subagentsSchema = z.object({
    max_concurrency: int().min(1).max(64).default(4),
  });

  const notificationsSchema = z.object({
    claim_stale_after_ms: int().min(1).default(15_000),
  });

  const serviceSchema = z.object({
    base_url: z.string(),
    api_key: z.string().default(''),
    custom_headers: stringMap.optional(),
    oauth: oauthRefSchema.optional(),
  });

  const servicesSchema = z.object({
    moonshot_search: serviceSchema.optional(),
    moonshot_fetch: serviceSchema.optional(),
  });

  const sandboxSchema = z.object({
    mode: z.enum(SANDBOX_MODES).default('workspace-write'),
    network: z.boolean().default(false),
    /**
     * Variables commands get although they look like credentials (src/policy/credential-variables.ts):
     * their values then reach the model whenever a command prints them.
     */
    keep_env: z.array(z.string().min(1)).default([]),
    /**
     * Whether the workspace's secret files (`.env`, keys, credentials files, a `.git/config` with a
     * token) read as empty to sandboxed commands. Only the person's own config sets it: kimi-ts reads no
     * config from a workspace, so a repository cannot turn it off.
     */
    hide_workspace_secrets: z.boolean().default(true),
    /**
     * Whether plain-named workspace files holding a token (`ghp_…` in `deploy-notes.txt`) are shown to
     * sandboxed commands as read-only copies with the tokens replaced. On by default; off for a tree
     * whose untracked files hold sample tokens a sandboxed build must rewrite (such a write fails).
     */
    scan_workspace_tokens: z.boolean().default(true),
  });

  /** `[trust]`: folders the person trusts (kimi-ts; `~` allowed); each covers the folders below it. */
  const trustSchema = z.object({
    folders: z.array(z.string().min(1)).default([]),
  });

  /** `[checkpoints]`: the file checkpoints `/rewind` returns to (kimi-ts; not in Kimi CLI). */
  const checkpointsSchema = z.object({
    enabled: z.boolean().default(true),
    /** Files larger than this are noted as not restorable instead of being stored. */
    max_file_mib: z.number().positive().max(1024).default(10),
    /** Checkpoints older than this are pruned (sessions still open keep theirs). */
    max_age_days: z.number().positive().default(30),
    /** The store of a work dir is pruned, oldest sessions first, down to this size. */
    max_total_mib: z.number().positive().default(1024),
  });

  const mcpSchema = z.object({
    client: z.object({ tool_call_timeout_ms: int().min(1).default(60_000) }).prefault({}),
  });

  /**
   * A `[[hooks]]` entry, checked only for shape here; the hooks engine (`src/hooks/config.ts`) checks
   * event names and matcher regexes when it loads them.
   */
  const hookEntrySchema = z.looseObject({
    event: z.string().min(1),
    command: z.string().min(1),
    matcher: z.string().default(''),
    timeout: int().min(1).max(600).default(30),
  });

  const configSchema = z.object({
    default_model: z.string().default(''),
    default_thinking: z.boolean().default(false),
    default_yolo: z.boolean().default(false),
    skip_afk_prompt_injection: z.boolean().default(false),
    default_plan_mode: z.boolean().default(false),
    default_editor: z.string().default(''),
    theme: z.enum(['dark', 'light']).default('dark'),
    show_thinking_stream: z.boolean().default(true),
    merge_all_available_skills: z.boolean().default(true),
    extra_skill_dirs: z.array(z.string()).default([]),
    telemetry: z.boolean().default(true),
    providers: z.record(z.string(), providerSchema).default({}),
    models: z.record(z.string(), modelSchema).default({}),
    loop_control: loopControlSchema.prefault({}),
    background: backgroundSchema.prefault({}),
    subagents: subagentsSchema.prefault({}),
    notifications: notificationsSchema.prefault({}),
    services: servicesSchema.prefault({}),
    mcp: mcpSchema.prefault({}),
    sandbox: sandboxSchema.prefault({}),
    checkpoints: checkpointsSchema.prefault({}),
    trust: trustSchema.prefault({}),
    hooks: z.array(hookEntrySchema).default([]),
    /** Kimi Code's `[[permission.rules]]`; patterns are checked when a session builds its policy. */
    permission: permissionSectionSchema().prefault({}),
  });

  return {
    oauthRefSchema,
    providerSchema,
    modelSchema,
    loopControlSchema,
    backgroundSchema,
    subagentsSchema,
    notificationsSchema,
    serviceSchema,
    servicesSchema,
    sandboxSchema,
    trustSchema,
    checkpointsSchema,
    mcpSchema,
    hookEntrySchema,
    configSchema,
  };
}

/** Accepts Kimi CLI's older name `max_steps_per_run` for `max_steps_per_turn`. */
export function renameLegacyLoopKeys(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const table = { ...(value as Record<string, unknown>) };
  if (table.max_steps_per_turn === undefined && table.max_steps_per_run !== undefined) {
    table.max_steps_per_turn = table.max_steps_per_run;
  }
  delete table.max_steps_per_run;
  return table;
}
