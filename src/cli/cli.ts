#!/usr/bin/env node
import { resolve } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { VERSION } from '../version.js';
import type { CliOptions } from './cli-options.js';
import { mistypedCommand } from './command-suggestion.js';
import { USAGE_EXIT_CODE, usageErrorText } from './usage-text.js';

const collect = (value: string, previous: string[]) => [...previous, value];

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be an integer ≥ 1.');
  return n;
}

function ralphIterations(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < -1) throw new InvalidArgumentError('must be an integer ≥ -1.');
  return n;
}

function portNumber(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('must be a port (0-65535).');
  return n;
}

function nonEmpty(value: string): string {
  if (!value.trim()) throw new InvalidArgumentError('must not be empty.');
  return value;
}

export function buildProgram(): Command {
  const program = new Command('kimi-ts')
    .description('A terminal coding agent: the agent loop and tool system of Kimi CLI, in TypeScript.')
    .version(`kimi-ts, version ${VERSION}`, '-V, --version')
    // One width on every terminal: the launcher answers `--help` with this text recorded at build time.
    .configureHelp({ helpWidth: 80 })
    // Usage errors read and exit as Kimi CLI's do (exit 2, a hint to --help); subcommands made
    // below inherit both settings.
    .configureOutput({
      outputError: (text, write) => write(usageErrorText(text.trim().replace(/^error: /, ''))),
    })
    .exitOverride((error) => {
      process.exit(error.exitCode === 0 ? 0 : USAGE_EXIT_CODE);
    })
    .argument('[prompt...]', 'a prompt: opens the TUI with it sent (with --print, runs it headless)')
    .option('-w, --work-dir <path>', 'working directory of the agent (default: current directory)')
    .option('--add-dir <path>', 'another directory the agent may work in (repeatable)', collect, [])
    .option(
      '-S, --session [id]',
      'resume the session with this id, or a unique start of it (a full UUID that is not there yet creates it)',
    )
    .option('-r, --resume [id]', 'same as --session')
    .option('-C, --continue', 'continue the latest session of the working directory')
    .option('--config <text>', 'config as TOML or JSON text', nonEmpty)
    .option('--config-file <path>', 'config file (TOML, or JSON by extension)')
    .option('-m, --model <alias>', 'model alias from the config')
    .option('--thinking', 'turn thinking on')
    .option('--no-thinking', 'turn thinking off')
    .option('-y, --yolo', 'approve every action automatically')
    .addOption(new Option('--yes').hideHelp().implies({ yolo: true }))
    .addOption(new Option('--auto-approve').hideHelp().implies({ yolo: true }))
    .option('--afk', 'away from keyboard: approve actions and dismiss questions')
    .option('--sandbox', 'run commands in the bubblewrap sandbox (Linux): workspace writable, no network')
    .option('--plan', 'start in plan mode')
    .option('-p, --prompt <text>', 'the prompt (print mode reads stdin when absent)', nonEmpty)
    .addOption(new Option('-c, --command <text>', 'same as --prompt').hideHelp())
    .option('--print', 'non-interactive: run the prompt, print the answer, exit')
    .option('--quiet', 'same as --print --output-format text --final-message-only')
    .option('--wire', 'serve the wire protocol (JSON-RPC 2.0 over stdio)')
    .addOption(
      new Option('--input-format <format>', 'print mode input')
        .choices(['text', 'stream-json'])
        .default('text'),
    )
    .addOption(
      new Option('--output-format <format>', 'print mode output')
        .choices(['text', 'stream-json'])
        .default('text'),
    )
    .option('--final-message-only', 'print only the final assistant message')
    .option('--agent-file <path>', 'agent spec YAML')
    .option('--skills-dir <path>', "take skills from this folder instead of the project's and the user's")
    .option('--mcp-config-file <path>', 'MCP servers JSON file (repeatable)', collect, [])
    .option('--mcp-config <json>', 'MCP servers JSON text (repeatable)', collect, [])
    .option('--max-steps-per-turn <n>', 'steps a turn may take', positiveInt)
    .option('--max-retries-per-step <n>', 'attempts per step', positiveInt)
    .option(
      '--max-ralph-iterations <n>',
      'Ralph loop: run each prompt again up to n more times until the model says STOP (-1: no limit)',
      ralphIterations,
    )
    .option('--debug', 'print stack traces of fatal errors')
    .addOption(
      new Option(
        '--ui <mode>',
        'interactive front end: tui (the default on a terminal) or line (the default for TERM=dumb and pipes)',
      ).choices(['line', 'tui']),
    )
    .addHelpText(
      'after',
      [
        '',
        'A prompt on the command line opens the TUI with it sent:',
        '  kimi-ts "fix the failing test"',
        'With --print it runs headless. One word close to a command name (sesions) is',
        'taken for a mistyped command and answered with a suggestion; words with spaces',
        'are always a prompt.',
        '',
        'Session ids: -S, export, vis and /sessions take any unique start of an id (the',
        '8 characters the lists show).',
        '',
        'Exit codes: 0 done, 1 failed, 2 usage error (bad flag, unknown command or',
        'session id), 75 retryable provider error in print mode (rate limit, server or',
        'connection error).',
        '',
        'Something not working? kimi-ts doctor checks the setup.',
      ].join('\n'),
    )
    .action(async (words: string[], options: CliOptions & { command?: string }, command: Command) => {
      const suggestion = mistypedCommand(
        words,
        command.commands.map((sub) => sub.name()),
      );
      if (suggestion !== null) {
        command.error(`unknown command '${words[0]}'. Did you mean '${suggestion}'?`);
      }
      const { runMain } = await import('./run-main.js');
      process.exitCode = await runMain({
        ...options,
        prompt: options.prompt ?? options.command,
        positionalPrompt: words.length ? words.join(' ') : undefined,
      });
    });

  program
    .command('sessions')
    .description('list the sessions of the working directory')
    .option('-w, --work-dir <path>', 'working directory (default: current directory)')
    .option('--checkpoints <id>', "list a session's file checkpoints (what /rewind returns to)")
    .action(async (options: { workDir?: string; checkpoints?: string }) => {
      const { listSessionsCommand, listCheckpointsCommand } = await import('./run-main.js');
      process.exitCode = options.checkpoints
        ? await listCheckpointsCommand(options.workDir, options.checkpoints)
        : await listSessionsCommand(options.workDir);
    });

  program
    .command('export')
    .description('write a session of the working directory as Markdown or a ZIP (default: the latest)')
    .argument('[session-id]')
    .option('-o, --output <file>', 'write to this file instead of stdout (a .zip name writes a ZIP)')
    .option('--zip', 'write the session folder as a ZIP (for kimi-ts vis), not Markdown')
    .option('-y, --yes', 'replace the ZIP if the file exists')
    .option('-w, --work-dir <path>', 'working directory (default: current directory)')
    .action(async (sessionId: string | undefined, _options: unknown, command: Command) => {
      const { exportCommand } = await import('../app/export-command.js');
      // `-w` is the main command's option too: take it from wherever it was parsed. So are `-y`
      // and `--yes` (the main command's --yolo): parsed there, they arrive as `yolo`.
      const options = command.optsWithGlobals<{
        output?: string;
        workDir?: string;
        zip?: boolean;
        yes?: boolean;
        yolo?: boolean;
      }>();
      process.exitCode = await exportCommand({
        sessionId,
        output: options.output,
        workDir: options.workDir,
        zip: options.zip,
        overwrite: Boolean(options.yes || options.yolo),
        write: (text) => process.stdout.write(text),
        error: (text) => process.stderr.write(text),
      });
    });

  program
    .command('vis')
    .description('a read-only picture of a session in the browser: timeline, charts, raw events')
    .argument('[session]', 'a session id, or the path of a session folder')
    // Kimi CLI's flags: `-h` is the host here, so this command's help is `--help` only.
    .helpOption('--help', 'display help for command')
    .option('-h, --host <host>', 'address to bind (default: 127.0.0.1)')
    .option('-p, --port <port>', 'port (5495; the next free one up to 5504; 0: any free port)', portNumber)
    .option('-n, --network', 'bind every network address (a token is still required)')
    .option('--open', 'open the page in the browser (default)')
    .option('--no-open', 'only print the address')
    .option('--export <file.html>', 'write one self-contained HTML file of the session instead of serving')
    .option('-w, --work-dir <path>', 'working directory whose latest session --export takes')
    .action(async (session: string | undefined, _options: unknown, command: Command) => {
      const { visCommand } = await import('../ui/vis/vis-command.js');
      const options = command.optsWithGlobals<{
        host?: string;
        port?: number;
        network?: boolean;
        open?: boolean;
        export?: string;
        workDir?: string;
        configFile?: string;
      }>();
      const stopped = new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      process.exitCode = await visCommand({
        ...options,
        session,
        write: (text) => process.stdout.write(text),
        error: (text) => process.stderr.write(text),
        stopped,
      });
    });

  // The MCP SDK loads only when `kimi-ts mcp …` is run: the real sub-program is built on demand.
  program
    .command('mcp')
    .description('manage MCP servers: add, remove, list, auth, reset-auth, test')
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .argument('[args...]')
    .action(async (args: string[]) => {
      const [{ buildMcpCommand }, { kimiTsHome }] = await Promise.all([
        import('../mcp/cli/build-mcp-command.js'),
        import('../config/home.js'),
      ]);
      const mcp = buildMcpCommand({ home: () => kimiTsHome(process.env) });
      await mcp.parseAsync(args.length ? args : ['--help'], { from: 'user' });
    });

  program
    .command('plugin')
    .description('manage plugins: install, list, remove, info')
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .argument('[args...]')
    .action(async (args: string[], _options: unknown, command: Command) => {
      const [{ buildPluginCommand }, { kimiTsHome }] = await Promise.all([
        import('../app/plugins/plugin-command.js'),
        import('../config/home.js'),
      ]);
      // `--config-file` after `plugin …` is taken by the main command, which defines it too.
      const { configFile } = command.optsWithGlobals<{ configFile?: string }>();
      const plugin = buildPluginCommand({
        env: process.env,
        home: kimiTsHome(process.env),
        configFile,
        write: (text) => process.stdout.write(text),
      });
      await plugin.parseAsync(args.length ? args : ['--help'], { from: 'user' });
    });

  program
    .command('acp')
    .description('serve editors over the Agent Client Protocol (stdio)')
    .option('--config <text>', 'config as TOML or JSON text', nonEmpty)
    .option('--config-file <path>', 'config file (TOML, or JSON by extension)')
    .option('-m, --model <alias>', 'model alias from the config')
    .option('--agent-file <path>', 'agent spec YAML')
    .option('-y, --yolo', 'approve every action automatically')
    .option('--max-steps-per-turn <n>', 'steps a turn may take', positiveInt)
    .action(async (_options: unknown, command: Command) => {
      const { runAcpCommand } = await import('./run-acp.js');
      // The main command defines the same flags: take them from wherever they were parsed.
      const options = command.optsWithGlobals<import('./run-acp.js').AcpCommandOptions>();
      process.exitCode = await runAcpCommand(options);
    });

  program
    .command('web')
    .description('serve the web UI: sessions in a browser, over a local HTTP server')
    // Kimi CLI's flags: `-h` is the host here, so this command's help is `--help` only.
    .helpOption('--help', 'display help for command')
    .option('-h, --host <address>', 'address to bind (default 127.0.0.1)')
    .option('-n, --network', 'bind all interfaces (0.0.0.0)')
    .option('-p, --port <port>', 'port; the next free one up to 9 higher is taken (0: any)', portNumber, 5494)
    .option('--open', 'open the browser (default: when run at a terminal)')
    .option('--no-open', 'do not open the browser')
    .option('--auth-token <token>', 'the bearer token (default: generated once, kept in the home)')
    .option('--allowed-origins <list>', 'more origins a page may come from (comma separated)')
    .option('--lan-only', 'accept clients on loopback and private networks only (default)', true)
    .option('--public', 'accept clients from any address')
    .option('--dangerously-omit-auth', 'serve without a token (anyone who can connect drives the agent)')
    .action(async (_options: unknown, command: Command) => {
      const { runWebCommand } = await import('./run-web-command.js');
      const options = command.optsWithGlobals<
        import('./run-web-command.js').WebCommandOptions & { public?: boolean }
      >();
      process.exitCode = await runWebCommand({ ...options, lanOnly: !options.public });
    });

  for (const [name, what] of [
    ['login', 'log in to Kimi Code (OAuth device login)'],
    ['logout', 'forget the Kimi Code login'],
  ] as const) {
    program
      .command(name)
      .description(what)
      .option('--json', 'events as JSON lines')
      .action(async (options: { json?: boolean }) => {
        const { runAuthCommand } = await import('../auth/login-command.js');
        process.exitCode = await runAuthCommand(name, Boolean(options.json));
      });
  }

  program
    .command('info')
    .description('version and protocol information, the config file, home and default model')
    .option('--json', 'as JSON')
    .action(async (_options: unknown, command: Command) => {
      const [{ infoReport }, { kimiTsHome }] = await Promise.all([
        import('../app/info-report.js'),
        import('../config/home.js'),
      ]);
      const options = command.optsWithGlobals<{ json?: boolean; configFile?: string; config?: string }>();
      const info = await infoReport({
        home: kimiTsHome(process.env),
        env: process.env,
        configFile: options.configFile,
        inlineConfig: options.config,
      });
      if (options.json) process.stdout.write(`${JSON.stringify(info)}\n`);
      else
        for (const [key, value] of Object.entries(info)) process.stdout.write(`${key}: ${String(value)}\n`);
    });

  program
    .command('doctor')
    .description(
      'check the setup: config, model and key, ripgrep, sandbox, git, Node (exit 1 if something essential fails)',
    )
    .action(async (_options: unknown, command: Command) => {
      const [{ runDoctor }, { kimiTsHome }] = await Promise.all([
        import('../app/doctor/run-doctor.js'),
        import('../config/home.js'),
      ]);
      const options = command.optsWithGlobals<{
        configFile?: string;
        config?: string;
        model?: string;
        workDir?: string;
      }>();
      process.exitCode = await runDoctor({
        home: kimiTsHome(process.env),
        workDir: resolve(options.workDir ?? process.cwd()),
        env: process.env,
        configFile: options.configFile,
        inlineConfig: options.config,
        modelAlias: options.model,
        write: (text) => process.stdout.write(text),
      });
    });
  return program;
}

// A reader that goes away (`kimi-ts … | head`) is not an error worth a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

/**
 * `web` and `vis` own `-h/-p/-n` (Kimi CLI's flags), so for them the main command's options must come
 * before the subcommand (as in Kimi CLI) and `-p` after `web` is the port, not the main `--prompt`.
 * Elsewhere the main command's options are still taken after a subcommand too (`plugin … --config-file`).
 */
function subcommandOf(argv: readonly string[]): string | undefined {
  const probe = buildProgram()
    .exitOverride()
    .configureOutput({ writeErr: () => {}, writeOut: () => {}, outputError: () => {} });
  try {
    return probe.parseOptions(argv.slice(2)).operands[0];
  } catch {
    return undefined;
  }
}

const program = buildProgram();
const subcommand = subcommandOf(process.argv);
if (subcommand === 'web' || subcommand === 'vis') program.enablePositionalOptions();
program.parseAsync(process.argv).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
