import { Command, InvalidArgumentError, Option } from '@commander-js/extra-typings';
import { VERSION } from '../version.js';
import { USAGE_EXIT_CODE, usageErrorText } from './usage-text.js';

export const collect = (value: string, previous: string[]) => [...previous, value];

export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be an integer ≥ 1.');
  return n;
}

function ralphIterations(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < -1) throw new InvalidArgumentError('must be an integer ≥ -1.');
  return n;
}

export function portNumber(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('must be a port (0-65535).');
  return n;
}

export function nonEmpty(value: string): string {
  if (!value.trim()) throw new InvalidArgumentError('must not be empty.');
  return value;
}

/**
 * The main command and its flags. The type of what they parse to (`CliOptions`) is inferred from
 * these declarations (@commander-js/extra-typings), so a flag is declared once, here.
 */
export function mainCommand() {
  return (
    new Command('kimi-ts')
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
      .option('--trust-workspace', "trust the work dir: its own rules file's allow rules are in force")
      .addOption(
        new Option(
          '--sandbox [mode]',
          'the bubblewrap command sandbox (Linux), on by default: workspace writable, no network; `off` turns it off',
        ).choices(['off', 'workspace-write', 'read-only'] as const),
      )
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
  );
}

/** What the flags of the main command parse to. */
export type CliOptions = ReturnType<ReturnType<typeof mainCommand>['opts']> & {
  /** Words given without a flag (`kimi-ts "fix the bug"`): the first prompt of an interactive run, or print mode's. */
  positionalPrompt?: string | undefined;
};
