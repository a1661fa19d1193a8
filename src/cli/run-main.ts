import { existsSync, statSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { resolve } from 'node:path';
import { UsageError } from '../app/usage-error.js';
import { ConfigError } from '../config/config-error.js';
import { defaultConfigFile, kimiTsHome } from '../config/home.js';
import { SessionError } from '../session/session.js';
import { sanitizeForTerminal } from '../util/sanitize-terminal.js';
import type { CliOptions } from './cli-options.js';
import { printWarning } from './print-warning.js';
import { markRunCompleted } from './run-completed.js';
import { writeStderr, writeStdout } from './terminal-output.js';
import { USAGE_EXIT_CODE, usageErrorText } from './usage-text.js';

function checkFlags(options: CliOptions): void {
  const modes = [options.print || options.quiet ? '--print' : null, options.wire ? '--wire' : null].filter(
    Boolean,
  );
  if (modes.length > 1) throw new UsageError(`Cannot combine ${modes.join(' and ')}.`);
  if (options.config !== undefined && options.configFile !== undefined)
    throw new UsageError('Cannot combine --config and --config-file.');
  const session = options.session ?? options.resume;
  if (options.continue && session !== undefined)
    throw new UsageError('Cannot combine --continue, --session.', '--continue');
  if (session === true)
    throw new UsageError(
      '--session needs a session id in this mode (list them with `kimi-ts sessions`).',
      '--session',
    );
  if (options.positionalPrompt !== undefined) {
    if (options.prompt !== undefined)
      throw new UsageError('Give the prompt once: as an argument or with --prompt, not both.');
    if (options.wire) throw new UsageError('--wire takes its prompts over the protocol, not as an argument.');
  }
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
    // A prompt given as an argument is sent first in the interactive front ends, and is print mode's prompt.
    const initialPrompt = interactive ? options.positionalPrompt : undefined;
    const printPrompt = options.prompt ?? options.positionalPrompt;
    const env = process.env;
    const home = kimiTsHome(env);
    const print = !interactive && !options.wire;
    const workDir = resolve(options.workDir ?? process.cwd());
    // Asked of the interactive front ends only: process.stdin builds its stream on first use (a few
    // ms), which print mode needs only when it reads its prompt from standard input.
    const isTerminal = interactive && Boolean(process.stdin.isTTY && process.stdout.isTTY);
    // The TUI is the default on a real terminal; `--ui line`, TERM=dumb or a pipe get the line shell.
    const wantsTui = interactive && options.ui !== 'line' && isTerminal && env.TERM !== 'dumb';
    // The TUI's prompt shows before the session is built, so the user types while it is; warnings
    // from building it wait until the prompt has been handed over (they would tear its drawing).
    const splash = wantsTui ? await startSplash(env) : null;
    const heldWarnings: Parameters<typeof printWarning>[0][] = [];
    const onWarning: typeof printWarning = (warning) => {
      if (splash?.isUp) heldWarnings.push(warning);
      else printWarning(warning);
    };
    const flushWarnings = () => {
      for (const warning of heldWarnings.splice(0)) printWarning(warning);
    };
    // The app's modules load after the TUI's first frame (most of a start is evaluating them), on
    // the first session's build.
    const { openAgentSessionFromFlags } = await import('./session-options.js');
    // Warm the module cache for the common providers while the session's files are read: the SDK's
    // module loading overlaps with that I/O instead of following it.
    void import('../kosong/providers/openai-chat/index.js').catch(() => {});
    // Every session of this run (the shell can open more) is made the same way.
    const openAgentSession = (which: { sessionId?: string; continueLast?: boolean }) =>
      openAgentSessionFromFlags(options, {
        home,
        env,
        workDir,
        sessionId: which.sessionId,
        continueLast: which.continueLast,
        runtimeAfk: print,
        onWarning,
      });
    const session = await openAgentSession({
      sessionId:
        typeof (options.session ?? options.resume) === 'string'
          ? ((options.session ?? options.resume) as string)
          : undefined,
      continueLast: options.continue,
    }).catch((error: unknown) => {
      splash?.abort();
      flushWarnings();
      throw error;
    });
    const cancel = new AbortController();
    const onSignal = () => cancel.abort(new Error('Interrupted by user'));
    // SIGTERM, or SIGHUP (the terminal closed): the process must end now. Work a close would wait
    // for (a checkpoint of a big tree being recorded) is abandoned, its git stopped; the interactive
    // front ends do not watch `cancel`, so the session is closed from here and the process exits.
    let ending = false;
    let closing = false;
    const onEnd = (signal: NodeJS.Signals) => {
      if (ending) return;
      ending = true;
      onSignal();
      if (interactive) void endInteractive(signal);
      // Already closing (wire, print): what that close waits for is given up (same close, awaited below).
      else if (closing) void session.close({ abandonBackgroundWork: true });
    };
    const endInteractive = async (signal: NodeJS.Signals) => {
      await session.close({ abandonBackgroundWork: true }).catch(() => undefined);
      try {
        splash?.terminal.close();
      } catch {
        // The terminal may be gone already.
      }
      process.exit(128 + (osConstants.signals[signal] ?? 1));
    };
    process.once('SIGINT', onSignal);
    process.on('SIGTERM', onEnd);
    process.on('SIGHUP', onEnd);
    try {
      if (interactive) {
        const [{ runShell }, { InputHistory }, { wantsColor }] = await Promise.all([
          import('../ui/shell/run-shell.js'),
          import('../ui/common/input-history.js'),
          import('../ui/common/ansi-style.js'),
        ]);
        const { sessionControl } = await import('./session-control.js');
        const sessions = sessionControl(home, workDir, openAgentSession);
        if (splash) {
          const [{ runTuiSessions }, { saveConfigKey }] = await Promise.all([
            import('../ui/tui/run-tui-sessions.js'),
            import('../config/save-config-key.js'),
          ]);
          // `/theme` saves to the config file in use; an inline `--config` has no file to save to.
          const configFile =
            options.config === undefined ? (options.configFile ?? defaultConfigFile(home)) : null;
          splash.handOff();
          flushWarnings();
          try {
            return await runTuiSessions({
              session,
              terminal: splash.terminal,
              color: wantsColor(isTerminal, env),
              theme: session.config.theme,
              thinking: session.config.show_thinking_stream ? 'stream' : 'indicator',
              history: InputHistory.forWorkDir(home, session.workDir),
              modelPrices: Object.fromEntries(
                Object.entries(session.config.models).map(([alias, model]) => [alias, model.price]),
              ),
              sessions,
              initialPrompt,
              saveTheme:
                configFile === null ? undefined : (theme) => saveConfigKey(configFile, 'theme', theme),
            });
          } finally {
            // However the TUI ended, the terminal leaves raw mode.
            splash.terminal.close();
          }
        }
        return await runShell({
          session,
          input: process.stdin,
          output: process.stdout,
          isTerminal,
          color: wantsColor(isTerminal, env),
          thinking: !isTerminal ? 'off' : session.config.show_thinking_stream ? 'stream' : 'indicator',
          history: InputHistory.forWorkDir(home, session.workDir),
          sessions,
          initialPrompt,
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
        prompt: printPrompt,
        input: () => process.stdin,
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
      closing = true;
      await session.close({ abandonBackgroundWork: ending });
      // Off only after the close: a signal during it still abandons what the close waits for.
      process.off('SIGTERM', onEnd);
      process.off('SIGHUP', onEnd);
    }
  } catch (error) {
    const { AgentSpecError } = await import('../app/agent-spec.js');
    if (error instanceof UsageError) {
      writeStderr(sanitizeForTerminal(usageErrorText(error.message)));
      return USAGE_EXIT_CODE;
    }
    // Config text given on the command line is a flag's value: a bad one is a usage error (Kimi CLI).
    if (error instanceof ConfigError && error.source === '--config') {
      writeStderr(sanitizeForTerminal(usageErrorText(`Invalid value for --config: ${error.message}`)));
      return USAGE_EXIT_CODE;
    }
    if (error instanceof ConfigError || error instanceof SessionError || error instanceof AgentSpecError) {
      writeStderr(sanitizeForTerminal(`${error.message}\n`));
      return 1;
    }
    writeStderr(sanitizeForTerminal(`Error: ${error instanceof Error ? error.message : String(error)}\n`));
    if (options.debug && error instanceof Error && error.stack)
      writeStderr(sanitizeForTerminal(`${error.stack}\n`));
    else process.stderr.write('Run with --debug for the full traceback.\n');
    return 1;
  }
}

export async function listCheckpointsCommand(
  workDir: string | undefined,
  sessionId: string,
): Promise<number> {
  const [{ formatSessionCheckpoints }, { sessionAt }, { matchSessionId, sessionIdProblem }] =
    await Promise.all([
      import('../app/rewind/list-checkpoints.js'),
      import('../session/session.js'),
      import('../session/session-id-match.js'),
    ]);
  const home = kimiTsHome(process.env);
  const dir = resolve(workDir ?? process.cwd());
  const match = await matchSessionId({ home, workDir: dir }, sessionId);
  if (match.kind !== 'found') {
    writeStderr(sanitizeForTerminal(`${sessionIdProblem(match, dir)}\n`));
    return 2;
  }
  const session = sessionAt(home, dir, match.id);
  writeStdout(sanitizeForTerminal(await formatSessionCheckpoints(home, session.workDir, session.dir)));
  return 0;
}

/** Draws the TUI's prompt at once, before the session is built. */
async function startSplash(env: NodeJS.ProcessEnv) {
  const [{ TuiSplash }, { wantsTuiColor }] = await Promise.all([
    import('../ui/tui/splash.js'),
    import('../ui/tui/tui-style.js'),
  ]);
  return new TuiSplash(wantsTuiColor(env));
}

export async function listSessionsCommand(workDir: string | undefined): Promise<number> {
  const [{ formatSessionList }, { SessionCatalog }] = await Promise.all([
    import('../session/list.js'),
    import('../app/session-catalog.js'),
  ]);
  const catalog = new SessionCatalog(kimiTsHome(process.env), { env: process.env });
  const sessions = await catalog.list(resolve(workDir ?? process.cwd()));
  // Titles are the first prompt of each session, or a title a session file brought: made safe.
  writeStdout(
    sanitizeForTerminal(
      sessions.length ? `${formatSessionList(sessions)}\n` : 'No sessions yet for this directory.\n',
    ),
  );
  return 0;
}
