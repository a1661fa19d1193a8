import type { UILoop } from '../../soul/run-soul.js';
import { terminalText as t } from '../../util/sanitize-terminal.js';
import type { WireMessage } from '../../wire/message.js';
import { ansiStyle } from '../common/ansi-style.js';
import { runShellEscape } from '../common/shell-escape.js';
import { CommandOutputView } from './command-output-view.js';
import type { JobWork } from './job-runner.js';
import { sanitizeForTerminal } from './sanitize-for-terminal.js';
import type { TuiStyle } from './tui-style.js';
import { turnUiLoop } from './turn-ui-loop.js';

/**
 * A turn of the session (a prompt, or a scheduled prompt come due): `run` runs it with the UI loop
 * that shows it in the job's view, each message also going to `streamed` (the status line).
 */
export function turnWork(
  run: (ui: UILoop, signal: AbortSignal) => Promise<unknown>,
  streamed: (message: WireMessage) => void,
  screen: { requestRender(): void },
): JobWork {
  return async (view, signal) => {
    await run(turnUiLoop(view, streamed, screen), signal);
  };
}

/** What a `!command` runs with. */
export interface ShellEscapeSetting {
  workDir: string;
  env: Readonly<Record<string, string | undefined>>;
  style: TuiStyle;
  /** Colour in the command's own output (false with `NO_COLOR`). */
  color: boolean;
  /** Output arrived (a frame is asked for). */
  outputShown: () => void;
}

/** `!command`: run by the user's shell for the user alone (not part of the conversation). */
export function shellEscapeWork(command: string, setting: ShellEscapeSetting): JobWork {
  const { style } = setting;
  return async (view, signal) => {
    view.note(t`${style.accent('!')} ${style.bold(sanitizeForTerminal(command))}`);
    const output = new CommandOutputView(style);
    view.add(output);
    await runShellEscape({
      command,
      workDir: setting.workDir,
      env: setting.env,
      write: (text) => {
        output.append(text);
        setting.outputShown();
      },
      style: ansiStyle(setting.color),
      signal,
    });
  };
}
