import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { AgentSpecError } from '../app/agent-spec.js';
import { createAgentSession } from '../app/create-agent-session.js';
import { defaultExtensions } from '../app/default-extensions.js';
import { forkSession, undoPoints } from '../app/session-fork.js';
import { UsageError } from '../app/usage-error.js';
import { ConfigError } from '../config/config-error.js';
import { kimiTsHome } from '../config/home.js';
import { formatSessionList, listSessions } from '../session/list.js';
import { isValidSessionId, SessionError, sessionAt } from '../session/session.js';
import type { CliOptions } from './cli-options.js';
import { printWarning } from './print-warning.js';
import { markRunCompleted } from './run-completed.js';

function checkFlags(options: CliOptions): void {
  const modes = [options.print || options.quiet ? '--print' : null, options.wire ? '--wire' : null].filter(
    Boolean,
  );
  if (modes.length > 1) throw new UsageError(`Cannot combine ${modes.join(' and ')}.`);
  if (options.config !== undefined && options.configFile !== undefined)
    throw new UsageError('Cannot combine --config and --config-file.');
  const session = options.session ?? options.resume;
  if (options.continue && session !== undefined)
    throw new UsageError('Cannot combine --continue and --session.');
  if (session === true)
    throw new UsageError('--session needs a session id in this mode (list them with `kimi-ts sessions`).');
  if (options.quiet && options.outputFormat !== 'text')
    throw new UsageError('--quiet prints text only; drop --output-format.');
  if (!(options.print || options.quiet)) {
    if (options.inputFormat !== 'text' || options.outputFormat !== 'text' || options.finalMessageOnly) {
      throw new UsageError('--input-format, --output-format and --final-message-only apply to --print only.');
    }
  }
  if (
    options.workDir !== undefined &&
    !(existsSync(options.workDir) && statSync(options.workDir).isDirectory())
  ) {
    throw new UsageError(`--work-dir ${options.workDir} is not an existing directory.`);
  }
}

/** The main command: builds the session and runs the chosen front end. Returns the exit code. */
export async function runMain(options: CliOptions): Promise<number> {
  try {
    checkFlags(options);
    const interactive = !(options.print || options.quiet || options.wire) && options.prompt === undefined;
    // Warm the module cache for the common providers while the session's files are read: the SDK's
    // module loading overlaps with that I/O instead of following it.
    void import('../kosong/providers/openai-chat/index.js').catch(() => {});
    const env = process.env;
    const home = kimiTsHome(env);
    const print = !interactive && !options.wire;
    const workDir = resolve(options.workDir ?? process.cwd());
    // Every session of this run (the shell can open more) is made the same way.
    const openAgentSession = (which: { sessionId?: string; continueLast?: boolean }) =>
      createAgentSession({
        workDir,
        home,
        env,
        configFile: options.configFile,
        inlineConfig: options.config,
        modelAlias: options.model,
        sessionId: which.sessionId,
        continueLast: which.continueLast,
        agentFile: options.agentFile,
        yolo: options.yolo,
        sandbox: options.sandbox,
        afk: options.afk,
        runtimeAfk: print,
        thinking: options.thinking,
        maxStepsPerTurn: options.maxStepsPerTurn,
        maxRetriesPerStep: options.maxRetriesPerStep,
        maxRalphIterations: options.maxRalphIterations,
        // A path on the command line is relative to where the command runs.
        skillsDir: options.skillsDir === undefined ? undefined : resolve(options.skillsDir),
        addDirs: options.addDir,
        onWarning: printWarning,
        extensions: defaultExtensions({
          mcpConfigFiles: options.mcpConfigFile,
          mcpConfigs: options.mcpConfig,
          home,
          plan: options.plan,
          addDirs: options.addDir,
        }),
      });
    const session = await openAgentSession({
      sessionId:
        typeof (options.session ?? options.resume) === 'string'
          ? ((options.session ?? options.resume) as string)
          : undefined,
      continueLast: options.continue,
    });
    const cancel = new AbortController();
    const onSignal = () => cancel.abort(new Error('Interrupted by user'));
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
      if (interactive) {
        const [{ runShell }, { InputHistory }, { wantsColor }] = await Promise.all([
          import('../ui/shell/run-shell.js'),
          import('../ui/common/input-history.js'),
          import('../ui/shell/shell-style.js'),
        ]);
        const isTerminal = Boolean(process.stdin.isTTY && process.stdout.isTTY);
        // The TUI is the default on a real terminal; `--ui line`, TERM=dumb or a pipe get the line shell.
        if (options.ui !== 'line' && isTerminal && env.TERM !== 'dumb') {
          const { runTui } = await import('../ui/tui/run-tui.js');
          return await runTui({
            session,
            color: wantsColor(isTerminal, env),
            thinking: session.config.show_thinking_stream ? 'stream' : 'indicator',
            history: InputHistory.forWorkDir(home, session.workDir),
            yolo: options.yolo,
            modelPrices: Object.fromEntries(
              Object.entries(session.config.models).map(([alias, model]) => [alias, model.price]),
            ),
          });
        }
        return await runShell({
          session,
          input: process.stdin,
          output: process.stdout,
          isTerminal,
          color: wantsColor(isTerminal, env),
          thinking: !isTerminal ? 'off' : session.config.show_thinking_stream ? 'stream' : 'indicator',
          history: InputHistory.forWorkDir(home, session.workDir),
          sessions: {
            create: () => openAgentSession({}),
            open: async (id) =>
              isValidSessionId(id) && existsSync(sessionAt(home, workDir, id).contextFile)
                ? openAgentSession({ sessionId: id })
                : null,
            list: async () =>
              (await listSessions({ home, workDir })).map(({ session: s, title, updatedAt }) => ({
                id: s.id,
                title,
                updatedAt,
              })),
            fork: async (current) => {
              const fork = await forkSession(sessionAt(home, workDir, current.sessionId), { home });
              return openAgentSession({ sessionId: fork.id });
            },
            undoPoints: (current) => undoPoints(sessionAt(home, workDir, current.sessionId)),
            undo: async (current, n) => {
              const source = sessionAt(home, workDir, current.sessionId);
              const before = (await undoPoints(source)).find((point) => point.n === n);
              if (!before) throw new Error(`There is no turn ${n} to undo.`);
              const fork = await forkSession(source, { home, before });
              return openAgentSession({ sessionId: fork.id });
            },
          },
        });
      }
      if (options.wire) {
        const { runWireServer } = await import('../ui/wire-server/index.js');
        return await runWireServer({
          session,
          input: process.stdin,
          output: process.stdout,
          signal: cancel.signal,
        });
      }
      const { runPrint } = await import('../ui/print/run-print.js');
      return await runPrint({
        session,
        prompt: options.prompt,
        input: process.stdin,
        inputFormat: options.inputFormat,
        outputFormat: options.quiet ? 'text' : options.outputFormat,
        finalMessageOnly: Boolean(options.finalMessageOnly || options.quiet),
        stdout: (text) => process.stdout.write(text),
        stderr: (text) => process.stderr.write(text),
        cancel: cancel.signal,
      });
    } finally {
      markRunCompleted();
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      await session.close();
    }
  } catch (error) {
    if (
      error instanceof UsageError ||
      error instanceof ConfigError ||
      error instanceof SessionError ||
      error instanceof AgentSpecError
    ) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    process.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
    if (options.debug && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    else process.stderr.write('Run with --debug for the full traceback.\n');
    return 1;
  }
}

export async function listSessionsCommand(workDir: string | undefined): Promise<number> {
  const sessions = await listSessions({
    home: kimiTsHome(process.env),
    workDir: resolve(workDir ?? process.cwd()),
  });
  process.stdout.write(
    sessions.length ? `${formatSessionList(sessions)}\n` : 'No sessions yet for this directory.\n',
  );
  return 0;
}
