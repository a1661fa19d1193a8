import { afterEach } from 'vitest';
import { CliSandbox } from './run-cli.js';
import { ScriptedLLMServer, type ScriptedTurn } from './scripted-llm-server.js';

export type SandboxOptions = Omit<Parameters<typeof CliSandbox.create>[0], 'baseUrl'>;

/** A scripted model server and a CLI sandbox pointed at it, removed after each test. */
export interface ScriptedCli {
  readonly server: ScriptedLLMServer;
  readonly sandbox: CliSandbox;
  /** Starts a server answering `turns` in order and a sandbox whose config points at it. */
  setup(
    turns: ScriptedTurn[],
    options?: SandboxOptions,
  ): Promise<{ server: ScriptedLLMServer; sandbox: CliSandbox }>;
}

/**
 * The setup every end-to-end file shares: call once at the top of the file, then `await cli.setup(...)`
 * in each test and use `cli.server` / `cli.sandbox`. Both are closed and removed after each test.
 */
export function useScriptedCli(): ScriptedCli {
  let server: ScriptedLLMServer | undefined;
  let sandbox: CliSandbox | undefined;
  afterEach(async () => {
    await server?.close();
    await sandbox?.remove();
    server = undefined;
    sandbox = undefined;
  });
  return {
    get server() {
      if (!server) throw new Error('useScriptedCli: call setup() first');
      return server;
    },
    get sandbox() {
      if (!sandbox) throw new Error('useScriptedCli: call setup() first');
      return sandbox;
    },
    async setup(turns, options = {}) {
      server = await ScriptedLLMServer.start(turns);
      sandbox = await CliSandbox.create({ baseUrl: server.baseUrl, ...options });
      return { server, sandbox };
    },
  };
}
