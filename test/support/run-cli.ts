import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';

/** The built CLI: end-to-end tests run what a user runs (`npm test` builds first). */
export const CLI = resolve(import.meta.dirname, '../../dist/bin/kimi-ts.cjs');

/**
 * The Node that runs the CLI: the one running the tests unless `KIMI_TS_TEST_NODE` names another
 * binary (CI runs the end-to-end suite again under each maintained Node line).
 */
export const CLI_NODE = process.env.KIMI_TS_TEST_NODE || process.execPath;

/** One V8 code cache for every CLI the tests start, instead of one per sandbox home. */
const SHARED_CODE_CACHE_DIR = join(tmpdir(), 'kimi-ts-test-code-cache');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string>;
  input?: string;
  bare?: boolean;
  /** What starts the CLI, instead of `CLI_NODE CLI` (e.g. a single executable). */
  command?: string[];
}

/** A temp home, work dir and config pointing the CLI at a scripted LLM server. */
export class CliSandbox {
  private constructor(
    readonly root: string,
    readonly home: string,
    readonly workDir: string,
    readonly configFile: string,
  ) {}

  static async create(options: {
    baseUrl: string;
    maxContextSize?: number;
    apiKey?: string;
    extraToml?: string;
  }): Promise<CliSandbox> {
    const root = await mkdtemp(join(tmpdir(), 'kimi-ts-e2e-'));
    const home = join(root, 'home');
    const workDir = join(root, 'work');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(home);
    await mkdir(workDir);
    const configFile = join(root, 'config.toml');
    await writeSandboxConfig(configFile, options);
    return new CliSandbox(root, home, workDir, configFile);
  }

  /**
   * The same home and work dir with a config pointed at another server: a second session of the
   * same work dir with a model of its own (two CLIs at once).
   */
  async pointedAt(options: Parameters<typeof CliSandbox.create>[0]): Promise<CliSandbox> {
    const configFile = join(this.root, `config-${Math.random().toString(36).slice(2)}.toml`);
    await writeSandboxConfig(configFile, options);
    return new CliSandbox(this.root, this.home, this.workDir, configFile);
  }

  env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: this.root,
      KIMI_TS_HOME: this.home,
      KIMI_TS_CODE_CACHE_DIR: SHARED_CODE_CACHE_DIR,
      ...extra,
    };
    return env;
  }

  /** Runs the CLI with the sandbox's config and work dir, unless `bare` (then only `args`). */
  spawn(args: string[], options: RunOptions = {}): ChildProcess {
    const base = options.bare ? [] : ['--config-file', this.configFile, '-w', this.workDir];
    const [program, ...prefix] = options.command ?? [CLI_NODE, CLI];
    const child = spawn(program!, [...prefix, ...base, ...args], {
      env: this.env(options.env),
      cwd: this.workDir,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    if (options.input !== undefined) child.stdin?.end(options.input);
    return child;
  }

  run(args: string[], options: RunOptions = {}): Promise<CliResult> {
    const child = this.spawn(args, { ...options, input: options.input ?? '' });
    return collect(child);
  }

  remove(): Promise<void> {
    // A CLI whose terminal was just closed may still be finishing a checkpoint (git writing objects
    // into the store under the home) while this runs: retry a folder that filled up again meanwhile.
    return rm(this.root, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
  }
}

export function collect(child: ChildProcess): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
  });
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  return new Promise((resolvePromise, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolvePromise({ code, signal, stdout, stderr }));
  });
}

/**
 * Resolves once what `stream` printed (from now on) matches `pattern`; rejects if it closes first.
 * Another listener (`collect`) may read the same stream meanwhile.
 */
export function waitForOutput(stream: Readable, pattern: RegExp): Promise<string> {
  let seen = '';
  return new Promise((resolvePromise, reject) => {
    const onData = (chunk: Buffer | string): void => {
      seen += chunk.toString();
      if (!pattern.test(seen)) return;
      stream.off('data', onData);
      stream.off('close', onClose);
      resolvePromise(seen);
    };
    const onClose = (): void => reject(new Error(`output closed without ${pattern}: ${seen.slice(-500)}`));
    stream.on('data', onData);
    stream.once('close', onClose);
  });
}

/** A running CLI whose output a test waits on, line by line typed into it. */
export interface LiveCli {
  child: ChildProcess;
  /** Everything it printed so far. */
  readonly stdout: string;
  /** Resolves once the output contains `text` (at once if it already does). */
  waitFor(text: string): Promise<void>;
  type(text: string): void;
  /** Ends the input (after `last`, if given) and resolves with the exit code. */
  end(last?: string): Promise<number | null>;
}

export function liveCli(child: ChildProcess): LiveCli {
  let stdout = '';
  const waiting = new Map<string, () => void>();
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    for (const [text, resolve] of waiting) {
      if (stdout.includes(text)) {
        waiting.delete(text);
        resolve();
      }
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    child,
    get stdout() {
      return stdout;
    },
    waitFor: (text) =>
      new Promise<void>((resolve) => {
        if (stdout.includes(text)) resolve();
        else waiting.set(text, resolve);
      }),
    type: (text) => child.stdin!.write(text),
    end: (last) => {
      child.stdin!.end(last);
      return exited;
    },
  };
}

async function writeSandboxConfig(
  configFile: string,
  options: Parameters<typeof CliSandbox.create>[0],
): Promise<void> {
  await writeFile(
    configFile,
    [
      'default_model = "e2e"',
      '',
      '[providers.local]',
      'type = "openai_legacy"',
      `base_url = "${options.baseUrl}"`,
      `api_key = "${options.apiKey ?? 'sk-e2e-test-key'}"`,
      '',
      '[models.e2e]',
      'provider = "local"',
      'model = "e2e-model"',
      `max_context_size = ${options.maxContextSize ?? 100000}`,
      '',
      options.extraToml ?? '',
    ].join('\n'),
  );
}
