import {
  joinTerminalText,
  type TerminalSafe,
  terminalText as t,
  trustedLiteral,
} from '../../util/sanitize-terminal.js';
import { sanitizeForTerminal } from './sanitize-for-terminal.js';
import type { TuiStyle } from './tui-style.js';

/** `/help`, `/h`, `/?`: the session's help, then the TUI's own commands. */
export const HELP_COMMAND = /^\/(help|h|\?)$/;

/** The TUI's own commands and keys, shown after the session's `/help`. */
export function tuiHelp(
  commands: readonly { name: string; description?: string | undefined }[],
  style: TuiStyle,
): TerminalSafe {
  const own = [
    ...commands.filter((c) => !(c.description ?? '').startsWith('same as /')),
    { name: 'editor', description: 'write the prompt in $VISUAL / $EDITOR (also Ctrl-O)' },
    { name: 'exit', description: 'leave (also /quit, Ctrl-D at an empty prompt, Ctrl-C twice)' },
  ];
  return joinTerminalText(
    [
      style.bold('In this terminal UI:'),
      ...own.map((c) => t`/${sanitizeForTerminal(c.name)}: ${sanitizeForTerminal(c.description ?? '')}`),
      trustedLiteral('!command: run a shell command for you alone (not part of the conversation)'),
      style.dim(
        'Keys: Enter sends (queues while a turn runs) · Ctrl-S steers the running turn · Esc cancels it · Ctrl-C cancels and clears the prompt · Shift-Tab plan mode · Ctrl-E expands the last result · Ctrl-R searches past prompts · Shift-Enter/Ctrl-J new line',
      ),
    ],
    trustedLiteral('\n'),
  );
}
