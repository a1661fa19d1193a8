import { access, constants, stat } from 'node:fs/promises';
import { apiKeySource, describeApiKeySource } from '../../config/api-key-source.js';
import { ConfigError } from '../../config/config-error.js';
import { INLINE_SOURCE, type LoadedConfig, loadConfig } from '../../config/load-config.js';
import { resolveModel } from '../../config/resolve-model.js';
import { assertNever } from '../../util/assert-never.js';
import { displayUrl } from '../../util/display-url.js';
import { check, type DoctorCheck } from './doctor-check.js';
import { checkFolderTrust } from './folder-trust.js';
import { checkModelReachable } from './model-reachable.js';
import { checkGit, checkNode, checkRipgrep, checkSandbox } from './tool-checks.js';

export interface DoctorOptions {
  home: string;
  workDir: string;
  env: NodeJS.ProcessEnv;
  configFile?: string | undefined;
  inlineConfig?: string | undefined;
  modelAlias?: string | undefined;
  write: (text: string) => void;
  signal?: AbortSignal | undefined;
}

/** Provider types whose API needs a key (a local OpenAI-compatible server may not). */
const NEEDS_KEY: ReadonlySet<string> = new Set(['kimi', 'anthropic', 'gemini']);

/**
 * `kimi-ts doctor`: checks what a first run needs, one line each, and says what to do about what is
 * wrong. Secrets are never printed (only where a key came from). Exit 0 when every essential check
 * passed, 1 otherwise.
 */
export async function runDoctor(options: DoctorOptions): Promise<number> {
  const { home, workDir, env, signal } = options;
  const checks: DoctorCheck[] = [];
  const loaded = await loadConfigCheck(options, checks);
  checks.push(await homeCheck(home));
  if (loaded) checks.push(...(await modelChecks(loaded, options)));
  const wanted = loaded !== null && loaded.config.sandbox.mode !== 'off';
  const [git, sandbox] = await Promise.all([
    checkGit(env, signal),
    checkSandbox({ env, workDir, home, wanted, signal }),
  ]);
  checks.push(checkRipgrep(env.PATH), sandbox, git, checkNode());
  checks.push(await checkFolderTrust({ home, workDir, env, config: loaded?.config ?? null }));
  options.write(formatChecks(checks));
  const failed = checks.filter((c) => c.essential && c.status === 'fail');
  options.write(
    failed.length === 0
      ? 'All essential checks passed.\n'
      : `${failed.length} essential check${failed.length === 1 ? '' : 's'} failed: ${failed.map((c) => c.name).join(', ')}.\n`,
  );
  return failed.length === 0 ? 0 : 1;
}

async function loadConfigCheck(options: DoctorOptions, checks: DoctorCheck[]): Promise<LoadedConfig | null> {
  try {
    const loaded = await loadConfig({
      configFile: options.configFile,
      inlineConfig: options.inlineConfig,
      env: options.env,
      home: options.home,
    });
    checks.push(configSourceCheck(loaded.source));
    return loaded;
  } catch (error) {
    const problem = error instanceof ConfigError ? error.message : String(error);
    checks.push(check('config', 'fail', problem));
    return null;
  }
}

function configSourceCheck(source: LoadedConfig['source']): DoctorCheck {
  switch (source.kind) {
    case 'file':
      return check('config', 'ok', source.path);
    case 'inline':
      return check('config', 'ok', `${INLINE_SOURCE} (text on the command line)`);
    case 'default':
      return source.exists
        ? check('config', 'ok', source.path)
        : check(
            'config',
            'warn',
            `${source.path} does not exist: defaults and environment variables are used`,
            false,
          );
    default:
      return assertNever(source);
  }
}

async function homeCheck(home: string): Promise<DoctorCheck> {
  const info = await stat(home).catch(() => null);
  if (!info) return check('home', 'ok', `${home} (made on the first run)`);
  if (!info.isDirectory()) return check('home', 'fail', `${home} is not a folder`);
  const writable = await access(home, constants.W_OK).then(
    () => true,
    () => false,
  );
  return writable ? check('home', 'ok', home) : check('home', 'fail', `${home} is not writable`);
}

async function modelChecks(loaded: LoadedConfig, options: DoctorOptions): Promise<DoctorCheck[]> {
  let resolved: ReturnType<typeof resolveModel>;
  try {
    resolved = resolveModel(loaded.config, {
      modelAlias: options.modelAlias,
      env: options.env,
      home: options.home,
    });
  } catch (error) {
    return [check('model', 'fail', error instanceof Error ? error.message : String(error))];
  }
  if (resolved.status !== 'ready') {
    return [
      check('model', 'fail', `${resolved.reason}: run \`kimi-ts login\`, or configure one (kimi-ts --help)`),
    ];
  }
  const name = resolved.modelAlias ?? '(from environment variables)';
  const provider = resolved.providerName === null ? 'the environment' : `provider ${resolved.providerName}`;
  const checks = [
    check(
      'model',
      'ok',
      `${name}: ${resolved.model} via ${provider} (${resolved.providerType}) at ${resolved.baseUrl ? displayUrl(resolved.baseUrl) : '(no endpoint)'}`,
    ),
  ];
  const source = apiKeySource(resolved, loaded.source);
  if (source.kind === 'none') {
    const needed = NEEDS_KEY.has(resolved.providerType);
    checks.push(
      check(
        'API key',
        needed ? 'fail' : 'warn',
        'none set (config api_key, KIMI_API_KEY, or kimi-ts login)',
        needed,
      ),
    );
  } else {
    checks.push(check('API key', 'ok', `present, from ${describeApiKeySource(source)}`));
  }
  if (resolved.baseUrl !== '') checks.push(await checkModelReachable(resolved, source, options.signal));
  return checks;
}

const MARK: Record<DoctorCheck['status'], string> = { ok: 'ok', warn: 'warn', fail: 'FAIL', unknown: '?' };

function formatChecks(checks: readonly DoctorCheck[]): string {
  const width = Math.max(...checks.map((c) => c.name.length));
  return checks.map((c) => `[${MARK[c.status].padEnd(4)}] ${c.name.padEnd(width)}  ${c.detail}\n`).join('');
}
