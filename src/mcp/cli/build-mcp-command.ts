import { Command, Option } from 'commander';
import type { McpCommandContext, McpCommandResult } from './command-io.js';
import { type AddTransport, mcpAdd, mcpList, mcpRemove, mcpResetAuth } from './edit-commands.js';
import { mcpAuth, mcpTest } from './server-commands.js';

export interface BuildMcpCommandOptions extends Omit<McpCommandContext, 'home' | 'out' | 'err'> {
  /** kimi-ts's data folder, or a function giving it (resolved when a command runs). */
  home: string | (() => string);
  /** Default: write to process.stdout / process.stderr. */
  out?: ((line: string) => void) | undefined;
  err?: ((line: string) => void) | undefined;
  /** Receives each command's exit code. Default: sets `process.exitCode`. */
  onExit?: ((code: number) => void) | undefined;
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

/**
 * `kimi-ts mcp add|remove|list|auth|reset-auth|test` as a commander sub-program for the main CLI to
 * mount (`program.addCommand(buildMcpCommand({ home }))`). The actions are async: parse with
 * `parseAsync`.
 */
export function buildMcpCommand(options: BuildMcpCommandOptions): Command {
  const context = (): McpCommandContext => ({
    ...options,
    home: typeof options.home === 'function' ? options.home() : options.home,
    out: options.out ?? ((line) => process.stdout.write(`${line}\n`)),
    err: options.err ?? ((line) => process.stderr.write(`${line}\n`)),
  });
  const finish = (result: McpCommandResult): void => {
    if (options.onExit) options.onExit(result.exitCode);
    else if (result.exitCode !== 0) process.exitCode = result.exitCode;
  };

  const mcp = new Command('mcp').description(
    'Manage MCP servers (stored in mcp.json in the kimi-ts folder).',
  );

  mcp
    .command('add')
    .description('Add an MCP server (or replace one with the same name).')
    .argument('<name>', 'name of the server')
    .argument('[target...]', 'http/sse: the server URL; stdio: the command to run, after `--`')
    .addOption(
      new Option('-t, --transport <transport>', 'how to reach the server')
        .choices(['stdio', 'http', 'sse'])
        .default('stdio'),
    )
    .option('-e, --env <KEY=VALUE>', 'environment variable for a stdio server (repeatable)', collect, [])
    .option('-H, --header <KEY: VALUE>', 'HTTP header for an http/sse server (repeatable)', collect, [])
    .option('-a, --auth <type>', 'authorization for an http/sse server: "oauth"')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  kimi-ts mcp add --transport http context7 https://mcp.context7.com/mcp --header "CONTEXT7_API_KEY: your-key"',
        '  kimi-ts mcp add --transport http --auth oauth linear https://mcp.linear.app/mcp',
        '  kimi-ts mcp add chrome-devtools -- npx chrome-devtools-mcp@latest',
      ].join('\n'),
    )
    .action(
      async (
        name: string,
        target: string[],
        flags: { transport: AddTransport; env: string[]; header: string[]; auth?: string },
      ) => {
        finish(
          await mcpAdd(
            {
              name,
              target,
              transport: flags.transport,
              env: flags.env,
              header: flags.header,
              auth: flags.auth,
            },
            context(),
          ),
        );
      },
    );

  mcp
    .command('remove')
    .description('Remove an MCP server.')
    .argument('<name>', 'name of the server')
    .action(async (name: string) => finish(await mcpRemove(name, context())));

  mcp
    .command('list')
    .description('List the configured MCP servers and their authorization state.')
    .action(async () => finish(await mcpList(context())));

  mcp
    .command('auth')
    .description('Authorize with an OAuth MCP server in the browser.')
    .argument('<name>', 'name of the server')
    .action(async (name: string) => finish(await mcpAuth(name, context())));

  mcp
    .command('reset-auth')
    .description('Forget the stored OAuth credentials of an MCP server.')
    .argument('<name>', 'name of the server')
    .action(async (name: string) => finish(await mcpResetAuth(name, context())));

  mcp
    .command('test')
    .description('Connect to an MCP server and list its tools.')
    .argument('<name>', 'name of the server')
    .action(async (name: string) => finish(await mcpTest(name, context())));

  return mcp;
}
