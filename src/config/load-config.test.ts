import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.js';
import { kimiTsHome } from './home.js';
import { loadConfig } from './load-config.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-config-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

async function loadError(options: Parameters<typeof loadConfig>[0]): Promise<ConfigError> {
  const error = await loadConfig(options).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return error as ConfigError;
}

/** facts §2's example, as a Kimi CLI user has it in ~/.kimi/config.toml. */
const KIMI_CLI_CONFIG = `
default_model = "kimi-for-coding"
default_thinking = true
default_yolo = false
default_plan_mode = false
theme = "dark"
telemetry = false

[providers.kimi-for-coding]
type = "kimi"
base_url = "https://api.kimi.com/coding/v1"
api_key = "sk-xxx"
custom_headers = { "X-Team" = "tools" }

[providers.deepseek]
type = "openai_legacy"
base_url = "https://api.deepseek.com/v1"
api_key = "sk-yyy"
reasoning_key = "reasoning_content"

[providers.managed]
type = "kimi"
base_url = "https://api.kimi.com/coding/v1"
api_key = ""
oauth = { storage = "file", key = "oauth/kimi-code" }

[models.kimi-for-coding]
provider = "kimi-for-coding"
model = "kimi-for-coding"
max_context_size = 262144

[models."deepseek-v4"]
provider = "deepseek"
model = "deepseek-v4"
max_context_size = 131072
capabilities = ["thinking"]

[loop_control]
max_steps_per_turn = 1000
max_retries_per_step = 3
max_ralph_iterations = 0
reserved_context_size = 50000
compaction_trigger_ratio = 0.85

[background]
max_running_tasks = 4
keep_alive_on_exit = false
agent_task_timeout_s = 900
print_wait_ceiling_s = 3600

[services.moonshot_search]
base_url = "https://api.kimi.com/coding/v1/search"
api_key = "sk-xxx"

[services.moonshot_fetch]
base_url = "https://api.kimi.com/coding/v1/fetch"
api_key = "sk-xxx"

[mcp.client]
tool_call_timeout_ms = 60000

[[hooks]]
event = "PreToolUse"
matcher = "Shell"
command = ".kimi/hooks/safety-check.sh"
timeout = 10

[[hooks]]
event = "PostToolUse"
matcher = "WriteFile|StrReplaceFile"
command = "prettier --write ."

[some_future_table]
unknown = 1
`;

describe('loadConfig', () => {
  it("loads a Kimi CLI user's config.toml given with --config-file", async () => {
    const path = await write('config.toml', KIMI_CLI_CONFIG);
    const { config, source } = await loadConfig({ configFile: path });
    expect(source).toEqual({ kind: 'file', path });
    expect(config.default_model).toBe('kimi-for-coding');
    expect(config.default_thinking).toBe(true);
    expect(config.telemetry).toBe(false);
    expect(config.providers['kimi-for-coding']).toMatchObject({
      type: 'kimi',
      custom_headers: { 'X-Team': 'tools' },
    });
    expect(config.providers.deepseek?.reasoning_key).toBe('reasoning_content');
    expect(config.providers.managed?.oauth).toEqual({ storage: 'file', key: 'oauth/kimi-code' });
    expect(config.models['deepseek-v4']).toEqual({
      provider: 'deepseek',
      model: 'deepseek-v4',
      max_context_size: 131072,
      capabilities: ['thinking'],
    });
    expect(config.background.max_running_tasks).toBe(4);
    expect(config.background.read_max_bytes).toBe(30_000);
    expect(config.services.moonshot_fetch?.base_url).toBe('https://api.kimi.com/coding/v1/fetch');
    expect(config.mcp.client.tool_call_timeout_ms).toBe(60_000);
    expect(config.hooks).toEqual([
      { event: 'PreToolUse', matcher: 'Shell', command: '.kimi/hooks/safety-check.sh', timeout: 10 },
      {
        event: 'PostToolUse',
        matcher: 'WriteFile|StrReplaceFile',
        command: 'prettier --write .',
        timeout: 30,
      },
    ]);
    expect(config).not.toHaveProperty('some_future_table');
  });

  it('fills every default when the default file is absent', async () => {
    const { config, source } = await loadConfig({ home: dir });
    expect(source).toEqual({ kind: 'default', path: join(dir, 'config.toml'), exists: false });
    expect(config).toMatchObject({
      default_model: '',
      theme: 'dark',
      show_thinking_stream: true,
      telemetry: true,
      providers: {},
      models: {},
      hooks: [],
      loop_control: {
        max_steps_per_turn: 1000,
        max_retries_per_step: 3,
        max_ralph_iterations: 0,
        reserved_context_size: 50_000,
        compaction_trigger_ratio: 0.85,
      },
      background: { agent_task_timeout_s: 900, kill_grace_period_ms: 2000 },
      notifications: { claim_stale_after_ms: 15_000 },
      mcp: { client: { tool_call_timeout_ms: 60_000 } },
    });
  });

  it('reads the default file from KIMI_TS_HOME', async () => {
    const home = join(dir, 'home');
    await mkdir(home);
    await writeFile(
      join(home, 'config.toml'),
      'default_editor = "vim"\n[loop_control]\nmax_steps_per_run = 7\n',
    );
    expect(kimiTsHome({ KIMI_TS_HOME: home })).toBe(home);
    const { config, source } = await loadConfig({ env: { KIMI_TS_HOME: home } });
    expect(source).toEqual({ kind: 'default', path: join(home, 'config.toml'), exists: true });
    expect(config.default_editor).toBe('vim');
    // Kimi CLI's older key name is still understood.
    expect(config.loop_control.max_steps_per_turn).toBe(7);
  });

  it('defaults the home folder to ~/.kimi-ts', () => {
    expect(kimiTsHome({ HOME: '/home/someone' })).toBe('/home/someone/.kimi-ts');
  });

  it("takes KIMI_SHARE_DIR (the agent SDK's shareDir) when KIMI_TS_HOME is not set", () => {
    expect(kimiTsHome({ HOME: '/h', KIMI_SHARE_DIR: '/share' })).toBe('/share');
    expect(kimiTsHome({ HOME: '/h', KIMI_SHARE_DIR: '/share', KIMI_TS_HOME: '/ts' })).toBe('/ts');
    expect(kimiTsHome({ HOME: '/h', KIMI_SHARE_DIR: '  ', KIMI_TS_HOME: '' })).toBe('/h/.kimi-ts');
  });

  it('loads JSON by extension', async () => {
    const path = await write(
      'kimi.json',
      JSON.stringify({
        default_model: 'm',
        providers: { p: { type: 'anthropic', base_url: 'http://x', api_key: 'k' } },
        models: {
          m: { provider: 'p', model: 'claude', max_context_size: 200000, capabilities: ['image_in'] },
        },
      }),
    );
    const { config } = await loadConfig({ configFile: path });
    expect(config.models.m?.capabilities).toEqual(['image_in']);
    expect(config.providers.p?.type).toBe('anthropic');
  });

  it('takes inline --config as JSON first, then TOML', async () => {
    const json = await loadConfig({
      inlineConfig: '{"default_yolo": true, "loop_control": {"max_steps_per_turn": 5}}',
    });
    expect(json.source).toEqual({ kind: 'inline' });
    expect(json.config.default_yolo).toBe(true);
    expect(json.config.loop_control.max_steps_per_turn).toBe(5);
    const toml = await loadConfig({
      inlineConfig: 'default_yolo = true\n[loop_control]\nmax_retries_per_step = 9',
    });
    expect(toml.config.loop_control.max_retries_per_step).toBe(9);
  });

  it('rejects an empty inline config and the combination of both flags', async () => {
    expect((await loadError({ inlineConfig: '  ' })).message).toBe(
      'Invalid config in --config: must not be empty',
    );
    const both = await loadError({ inlineConfig: '{}', configFile: join(dir, 'x.toml') });
    expect(both.message).toContain('cannot be combined with --config-file');
  });

  it('names the file when --config-file does not exist', async () => {
    const path = join(dir, 'missing.toml');
    const error = await loadError({ configFile: path });
    expect(error.message).toBe(`Invalid config in ${path}: file not found`);
  });

  it('names file, key path and problem for values out of bounds or of the wrong type', async () => {
    const path = await write(
      'config.toml',
      [
        '[loop_control]',
        'max_steps_per_turn = 0',
        'compaction_trigger_ratio = 1.5',
        '[models."deepseek-v4.1"]',
        'provider = "p"',
        'model = "m"',
        'max_context_size = "big"',
        '[providers.p]',
        'type = "kimmi"',
        'base_url = "https://x.test/v1"',
        'api_key = "sk-secret-value"',
      ].join('\n'),
    );
    const error = await loadError({ configFile: path });
    expect(error.source).toBe(path);
    expect(error.message).toContain(`Invalid config in ${path}:`);
    expect(error.message).toContain('loop_control.max_steps_per_turn: must be at least 1');
    expect(error.message).toContain('loop_control.compaction_trigger_ratio: must be at most 0.99');
    expect(error.message).toContain(
      'models."deepseek-v4.1".max_context_size: must be a number, found a string',
    );
    expect(error.message).toContain('providers.p.type: must be one of "kimi", "openai_legacy"');
    expect(error.message).not.toContain('sk-secret-value');
    expect(error.problems.map((p) => p.keyPath)).toEqual([
      'providers.p.type',
      'models."deepseek-v4.1".max_context_size',
      'loop_control.max_steps_per_turn',
      'loop_control.compaction_trigger_ratio',
    ]);
  });

  it('reports a missing required key', async () => {
    const path = await write(
      'config.json',
      JSON.stringify({ providers: { p: { base_url: 'https://x.test/v1' } } }),
    );
    const error = await loadError({ configFile: path });
    expect(error.message).toBe(
      `Invalid config in ${path}: providers.p.type: is required (one of "kimi", "openai_legacy", "openai_responses", "anthropic", "gemini", "google_genai", "vertexai", "_echo", "_scripted_echo", "_chaos", "scripted", "echo", "chaos")`,
    );
  });

  it('refuses a base_url that is not an http(s) URL, naming file, table and key', async () => {
    const path = await write('config.toml', '[providers.p]\ntype = "kimi"\nbase_url = "not a url"\n');
    const error = await loadError({ configFile: path });
    expect(error.message).toBe(
      `Invalid config in ${path}: providers.p.base_url: must be an http:// or https:// URL, e.g. "https://api.moonshot.ai/v1"`,
    );
  });

  it('checks that default_model and each model provider exist', async () => {
    const path = await write(
      'config.toml',
      'default_model = "nope"\n[models.a]\nprovider = "ghost"\nmodel = "m"\nmax_context_size = 1000\n',
    );
    const error = await loadError({ configFile: path });
    expect(error.message).toContain('default_model: names model "nope", which is not defined under [models]');
    expect(error.message).toContain(
      'models.a.provider: names provider "ghost", which is not defined under [providers]',
    );
  });

  it('reports TOML syntax errors by position without quoting the line', async () => {
    const path = await write(
      'config.toml',
      '[providers.p]\ntype = "kimi"\napi_key = "sk-secret-value" oops\n',
    );
    const error = await loadError({ configFile: path });
    expect(error.message).toMatch(
      new RegExp(`^Invalid config in ${path}: not valid TOML at line 3, column \\d+: `),
    );
    expect(error.message).not.toContain('sk-secret-value');
  });

  it('reports JSON syntax errors without quoting the text', async () => {
    const path = await write('config.json', '{\n  "providers": {"p": {"api_key": sk-secret-value}}\n}');
    const error = await loadError({ configFile: path });
    expect(error.message).toMatch(/not valid JSON/);
    expect(error.message).not.toContain('sk-secret');
    const truncated = await write('cut.json', '{"a": {"api_key": "sk-secret-value"');
    const cut = await loadError({ configFile: truncated });
    expect(cut.message).not.toContain('sk-secret');
    expect(cut.message).toMatch(/not valid JSON (at line 1, column \d+|: it ends too early)/);
  });

  it('reports an inline config that is neither JSON nor TOML', async () => {
    const error = await loadError({ inlineConfig: '{"default_yolo": tru' });
    expect(error.message).toMatch(/^Invalid config in --config: not valid JSON/);
    const toml = await loadError({ inlineConfig: 'default_yolo = = true' });
    expect(toml.message).toMatch(/^Invalid config in --config: not valid TOML at line 1/);
  });

  it('rejects a config that is not a table', async () => {
    const error = await loadError({ inlineConfig: '[1, 2]' });
    expect(error.message).toBe('Invalid config in --config: must be a table, found a list');
  });
});
