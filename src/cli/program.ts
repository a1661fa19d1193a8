import { resolve } from 'node:path';
import { mainCommand, nonEmpty, portNumber, positiveInt } from './cli-options.js';
import { mistypedCommand } from './command-suggestion.js';
import { writeDocument } from './terminal-output.js';

/** The subcommands' names, in the order they are added: a mistyped one is told from a prompt by these. */
export const SUBCOMMAND_NAMES = [
  'sessions',
  'export',
  'vis',
  'mcp',
  'plugin',
  'acp',
  'web',
  'submit',
  'worker',
  'fleet',
  'login',
  'logout',
  'info',
  'doctor',
] as const;

/**
 * Whether a command line (the words after `kimi-ts`) needs the subcommands built: it holds one of
 * their names, or a help flag (the help lists them). Building them (20 commands, ~70 options) is
 * ~1.5 ms of CPU on a print run's path to its first model request (Node 22), and a line without any
 * of these words cannot reach one: commander dispatches to a subcommand only by its name.
 */
export function needsSubcommands(args: readonly string[]): boolean {
  const words = new Set<string>([...SUBCOMMAND_NAMES, 'help', '-h', '--help']);
  return args.some((arg) => words.has(arg));
}

/**
 * The command line's program: the main command and, unless told otherwise, the subcommands. Without
 * them, the main command parses its own flags and words as before (a word that names no subcommand
 * was always the prompt's).
 */
export function buildProgram(built: { subcommands: boolean } = { subcommands: true }) {
  const program = mainCommand().action(async (words, options, command) => {
    const suggestion = mistypedCommand(words, SUBCOMMAND_NAMES);
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

  if (built.subcommands) addSubcommands(program);
  return program;
}

function addSubcommands(program: ReturnType<typeof mainCommand>): void {
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
    .action(async (sessionId, _options, command) => {
      const { exportCommand } = await import('../app/export-command.js');
      // `-w` is the main command's option too: take it from wherever it was parsed. So are `-y`
      // and `--yes` (the main command's --yolo): parsed there, they arrive as `yolo`.
      const options = command.optsWithGlobals();
      process.exitCode = await exportCommand({
        sessionId,
        output: options.output,
        workDir: options.workDir,
        zip: options.zip,
        overwrite: Boolean(options.yes || options.yolo),
        write: writeDocument,
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
    .action(async (session, _options, command) => {
      const { visCommand } = await import('../ui/vis/vis-command.js');
      const options = command.optsWithGlobals();
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
    .action(async (args, _options, command) => {
      const [{ buildPluginCommand }, { kimiTsHome }] = await Promise.all([
        import('../app/plugins/plugin-command.js'),
        import('../config/home.js'),
      ]);
      // `--config-file` after `plugin …` is taken by the main command, which defines it too.
      const { configFile } = command.optsWithGlobals();
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
    .option('--trust-workspace', "trust the session folders: their rules files' allow rules are in force")
    .option('--max-steps-per-turn <n>', 'steps a turn may take', positiveInt)
    .action(async (_options, command) => {
      const { runAcpCommand } = await import('./run-acp.js');
      // The main command defines the same flags: take them from wherever they were parsed.
      const options = command.optsWithGlobals();
      process.exitCode = await runAcpCommand(options);
    });

  program
    .command('web')
    .description('serve the web UI: sessions in a browser, over a local HTTP server')
    // Kimi CLI's flags: `-h` is the host here, so this command's help is `--help` only.
    .helpOption('--help', 'display help for command')
    .option('-h, --host <address>', 'address to bind (default 127.0.0.1)')
    .option('-n, --network', 'bind all interfaces (0.0.0.0)')
    .option('-p, --port <port>', 'port (5494; the next free one up to 5503; 0: any free port)', portNumber)
    .option('--open', 'open the browser (default: when run at a terminal)')
    .option('--no-open', 'do not open the browser')
    .option('--auth-token <token>', 'the bearer token (default: generated once, kept in the home)')
    .option('--allowed-origins <list>', 'more origins a page may come from (comma separated)')
    .option('--lan-only', 'accept clients on loopback and private networks only (default)', true)
    .option('--public', 'accept clients from any address')
    .option('--dangerously-omit-auth', 'serve without a token (anyone who can connect drives the agent)')
    .option('--queue <url>', "show the fleet's sessions from its Redis (redis://HOST:PORT)")
    .action(async (_options, command) => {
      const { runWebCommand } = await import('./run-web-command.js');
      const options = command.optsWithGlobals();
      process.exitCode = await runWebCommand({ ...options, lanOnly: !options.public });
    });

  // The fleet (BullMQ on Redis): loaded only by these commands, never on the CLI's start path.
  program
    .command('submit')
    .description('queue a turn for the fleet and print its session id (--wait: follow it like --print)')
    .requiredOption('--queue <url>', "the fleet's Redis (redis://HOST:PORT)")
    .option('--wait', 'follow the turn and exit as print mode does')
    .option('--turn <n>', 'which turn of --session this is (default 1)', positiveInt)
    .option('--ask', 'approvals and questions wait for `fleet approve` / `fleet answer` (the turn parked)')
    .option('--repo <url>', 'the work dir as a git remote (workers on other machines; with --rev)')
    .option('--rev <rev>', 'the base revision of --repo: a commit id or a branch (default: main)')
    .option('--label <label>', 'pin the session to workers started with this --label (the machine with -w)')
    .action(async (_options, command) => {
      const { runFleetSubmit } = await import('./run-fleet-submit.js');
      process.exitCode = await runFleetSubmit(command.optsWithGlobals());
    });

  program
    .command('worker')
    .description("run turns of the fleet's sessions with this machine's config (SIGTERM drains)")
    .requiredOption('--queue <url>', "the fleet's Redis (redis://HOST:PORT)")
    .option('--concurrency <n>', 'turns run at once (default 1)', positiveInt)
    .option('--label <label>', 'a name for this worker in `fleet status`')
    .option('--lease-ms <ms>', 'how long a silent worker keeps its turns (default 30000)', positiveInt)
    .option(
      '--work-root <dir>',
      "the only folders this worker's sessions may work in (repeatable; default: anywhere)",
      (dir: string, previous: string[] = []) => [...previous, dir],
    )
    .action(async (_options, command) => {
      const { runFleetWorker } = await import('./run-fleet-worker.js');
      // The worker ends when its loop does (drained, or Redis gone), whatever handles remain.
      process.exit(await runFleetWorker(command.optsWithGlobals()));
    });

  const fleet = program.command('fleet').description('the fleet: `fleet status`, `fleet cancel SESSION`');
  fleet
    .command('cancel')
    .description("cancel a session's running turn (or its next one) wherever it runs")
    .argument('<session>', 'the session id')
    .requiredOption('--queue <url>', "the fleet's Redis (redis://HOST:PORT)")
    .action(async (session: string, _options, command) => {
      const { runFleetCancel } = await import('./run-fleet-cancel.js');
      process.exitCode = await runFleetCancel(session, command.optsWithGlobals());
    });
  fleet
    .command('approve')
    .description('answer the approval a parked turn of the session waits for (submitted with --ask)')
    .argument('<session>', 'the session id')
    .requiredOption('--queue <url>', "the fleet's Redis (redis://HOST:PORT)")
    .option('--approve', 'approve it')
    .option('--reject', 'reject it')
    .action(async (session: string, _options, command) => {
      const { runFleetApprove } = await import('./run-fleet-approve.js');
      process.exitCode = await runFleetApprove(session, command.optsWithGlobals());
    });
  fleet
    .command('answer')
    .description('answer the question a parked turn of the session waits for (without an answer: show it)')
    .argument('<session>', 'the session id')
    .requiredOption('--queue <url>', "the fleet's Redis (redis://HOST:PORT)")
    .option(
      '--answer <choice>',
      "one per question, in order: an option's label or number (a multi-select one: several, comma-joined)",
      (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
    )
    .option('--dismiss', 'answer nothing: the model hears that nobody chose')
    .action(async (session: string, _options, command) => {
      const { runFleetAnswer } = await import('./run-fleet-answer.js');
      process.exitCode = await runFleetAnswer(session, command.optsWithGlobals());
    });
  fleet
    .command('events')
    .description("a session's events as JSON lines with their stream ids (replay from --from, --follow)")
    .argument('<session>', 'the session id')
    .requiredOption('--queue <url>', "the fleet's Redis (redis://HOST:PORT)")
    .option('--from <id>', 'only the events after this stream id')
    .option('--follow', 'keep printing new events until interrupted')
    .action(async (session: string, _options, command) => {
      const { runFleetEvents } = await import('./run-fleet-events.js');
      process.exitCode = await runFleetEvents(session, command.optsWithGlobals());
    });
  fleet
    .command('status')
    .description('workers, turns waiting / running / parked / failed, which session runs where')
    .requiredOption('--queue <url>', "the fleet's Redis (redis://HOST:PORT)")
    .option('--json', 'as JSON')
    .action(async (_options, command) => {
      const { runFleetStatus } = await import('./run-fleet-status.js');
      process.exitCode = await runFleetStatus(command.optsWithGlobals());
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
    .action(async (_options, command) => {
      const [{ infoReport }, { kimiTsHome }] = await Promise.all([
        import('../app/info-report.js'),
        import('../config/home.js'),
      ]);
      const options = command.optsWithGlobals();
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
    .action(async (_options, command) => {
      const [{ runDoctor }, { kimiTsHome }] = await Promise.all([
        import('../app/doctor/run-doctor.js'),
        import('../config/home.js'),
      ]);
      const options = command.optsWithGlobals();
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
}
