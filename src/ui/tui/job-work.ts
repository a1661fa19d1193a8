import type { AgentSession } from '../../app/agent-session.js';
import type { UILoop } from '../../soul/run-soul.js';
import type { WireMessage } from '../../wire/message.js';
import { ansiStyle } from '../common/ansi-style.js';
import { runShellEscape } from '../common/shell-escape.js';
import { CommandOutputView } from './command-output-view.js';
import type { JobWork } from './job-runner.js';
import { sanitizeForTerminal } from './sanitize-for-terminal.js';
import type { TuiStyle } from './tui-style.js';

/**
 * A turn of the session: its raw wire messages go to the job's view as they come, each one also to
 * `streamed` (the status line); `batchShown` after each batch (a frame is asked for).
 */
export function turnWork(
  session: AgentSession,
  text: string,
  streamed: (message: WireMessage) => void,
  batchShown: () => void,
): JobWork {
  return async (view, signal) => {
    const ui: UILoop = async (wire) => {
      for await (const batch of wire.subscribe({ merge: false }).batches()) {
        for (const message of batch) {
          view.handle(message);
          streamed(message);
        }
        batchShown();
      }
    };
    await session.runTurn(text, ui, signal);
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
    view.note(`${style.accent('!')} ${style.bold(sanitizeForTerminal(command))}`);
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
