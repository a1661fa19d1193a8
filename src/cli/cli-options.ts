import { Command, InvalidArgumentError, Option } from '@commander-js/extra-typings';
import { VERSION } from '../version.js';

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
      .option('-w, --work-dir <path>', 'working directory of the agent (default: current directory)')
      .option('--add-dir <path>', 'another directory the agent may work in (repeatable)', collect, [])
      .option('-S, --session [id]', 'resume the session with this id (created if missing)')
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
  );
}

/** What the flags of the main command parse to. */
export type CliOptions = ReturnType<ReturnType<typeof mainCommand>['opts']>;
