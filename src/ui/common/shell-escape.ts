import { runCommand } from '../../tools/shell/run-command.js';
import { commandEnvironment, findBash } from '../../tools/shell/shell-environment.js';
/** The two styles `!command`'s own notes use (each front end passes its own). */
export interface EscapeStyle {
  dim(text: string): string;
  error(text: string): string;
}

/** How long a `!command` may run: the user is right there and can press Ctrl-C. */
const ESCAPE_TIMEOUT_MS = 24 * 60 * 60 * 1000;

/**
 * `!command`: runs the rest of the line with bash in the work dir, for the user alone: the output is
 * shown and not added to the conversation, nothing is asked. Ctrl-C (the `signal`) stops it with
 * everything it started. A `cd` cannot change the agent's folder, which the user is told.
 */
export async function runShellEscape(options: {
  command: string;
  workDir: string;
  env: Readonly<Record<string, string | undefined>>;
  write: (text: string) => void;
  style: EscapeStyle;
  signal: AbortSignal;
}): Promise<void> {
  const { command, write, style } = options;
  if (!command.trim()) {
    write('Type a command after the !, e.g. !git status\n');
    return;
  }
  if (/^cd(\s|$)/.test(command.trim())) {
    write(style.dim(`(cd only lasts for that one command: the agent stays in ${options.workDir})\n`));
  }
  const bash = findBash(options.env, [options.workDir]);
  if (bash === null) {
    write(`${style.error('Error:')} no bash executable was found.\n`);
    return;
  }
  let endsWithNewline = true;
  const outcome = await runCommand({
    bashPath: bash,
    command,
    cwd: options.workDir,
    env: commandEnvironment(options.env, bash, [options.workDir]),
    timeoutMs: ESCAPE_TIMEOUT_MS,
    killGraceMs: 2000,
    signal: options.signal,
    onOutput: (text) => {
      write(text);
      endsWithNewline = text.endsWith('\n');
    },
  });
  if (!endsWithNewline) write('\n');
  if (outcome.kind === 'exited' && outcome.exitCode !== 0)
    write(style.dim(`(exit code ${outcome.exitCode})\n`));
  else if (outcome.kind === 'cancelled') write('(interrupted)\n');
  else if (outcome.kind === 'spawn_failed') write(`${style.error('Error:')} ${outcome.error.message}\n`);
}
