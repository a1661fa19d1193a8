import { afterEach } from 'vitest';
import { CliSandbox } from './run-cli.js';
import { ScriptedLLMServer, type ScriptedTurn } from './scripted-llm-server.js';

/**
 * The shared setup of the end-to-end files: call `useScriptedCli()` once at the top of a file (it
 * registers an `afterEach`), then in each test:
 *
 * - `await cli.setup(turns, options)`: the usual case, a scripted model server and a sandbox whose
 *   config points at it; afterwards `cli.server` and `cli.sandbox` name them.
 * - `await cli.startServer(turns)`: one more scripted server (a second model, or one replacing the
 *   first mid-test); `cli.server` stays what it was.
 * - `await cli.createSandbox({ baseUrl, ... })`: a sandbox pointed at a server the test started
 *   itself (a LoopbackServer, the Kimi Code server); it becomes `cli.sandbox`.
 * - `cli.defer(close)`: anything else the test starts (another server, a terminal, a scenario) is
 *   closed after the test.
 *
 * Everything is closed after the test in the reverse order it was started (a terminal before the
 * sandbox it runs in), each even when one before it fails; the first failure is then thrown.
 */
export interface ScriptedCli {
  /** The server of the last `setup()`. */
  readonly server: ScriptedLLMServer;
  /** The sandbox of the last `setup()` or `createSandbox()`. */
  readonly sandbox: CliSandbox;
  /** Starts a server answering `turns` in order and a sandbox whose config points at it. */
  setup(
    turns: ScriptedTurn[],
    options?: SandboxOptions,
  ): Promise<{ server: ScriptedLLMServer; sandbox: CliSandbox }>;
  /** A further scripted server, closed after the test; it does not become `cli.server`. */
  startServer(turns?: ScriptedTurn[]): Promise<ScriptedLLMServer>;
  /** A sandbox whose config points at `baseUrl`, removed after the test; it becomes `cli.sandbox`. */
  createSandbox(options: SandboxOptions & { baseUrl: string }): Promise<CliSandbox>;
  /** Runs `close` after the test (what was deferred last runs first). */
  defer(close: () => unknown): void;
}

export type SandboxOptions = Omit<Parameters<typeof CliSandbox.create>[0], 'baseUrl'>;

export function useScriptedCli(): ScriptedCli {
  let server: ScriptedLLMServer | undefined;
  let sandbox: CliSandbox | undefined;
  const closers: (() => unknown)[] = [];
  afterEach(async () => {
    server = undefined;
    sandbox = undefined;
    await closeAll(closers.splice(0));
  });
  const cli: ScriptedCli = {
    get server() {
      if (!server) throw new Error('useScriptedCli: call setup() first');
      return server;
    },
    get sandbox() {
      if (!sandbox) throw new Error('useScriptedCli: call setup() or createSandbox() first');
      return sandbox;
    },
    async setup(turns, options = {}) {
      const started = await cli.startServer(turns);
      server = started;
      return { server: started, sandbox: await cli.createSandbox({ baseUrl: started.baseUrl, ...options }) };
    },
    async startServer(turns = []) {
      const started = await ScriptedLLMServer.start(turns);
      closers.push(() => started.close());
      return started;
    },
    async createSandbox(options) {
      const created = await CliSandbox.create(options);
      closers.push(() => created.remove());
      sandbox = created;
      return created;
    },
    defer(close) {
      closers.push(close);
    },
  };
  return cli;
}

/** Runs `closers` last first, every one even when one before it fails; then throws the first failure. */
export async function closeAll(closers: readonly (() => unknown)[]): Promise<void> {
  let failure: { error: unknown } | undefined;
  for (const close of [...closers].reverse()) {
    try {
      await close();
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure) throw failure.error;
}
