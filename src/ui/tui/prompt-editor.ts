import {
  type AutocompleteItem,
  CombinedAutocompleteProvider,
  Editor,
  type SlashCommand,
  type TUI,
} from '@mariozechner/pi-tui';

export { useKimiKeys } from './kimi-keys.js';

import { PathCompletion } from './path-completion.js';
import { sanitizeForTerminal } from './sanitize-for-terminal.js';
import type { TuiStyle } from './tui-style.js';

/** Entries the up arrow walks through (the editor keeps at most 100). */
const EDITOR_HISTORY = 100;

/** Commands of the TUI itself, completed after `/` with the session's own. */
export const TUI_COMMANDS: readonly SlashCommand[] = [
  { name: 'exit', description: 'leave kimi-ts (also /quit, or Ctrl-C twice at an empty prompt)' },
  { name: 'quit', description: 'leave kimi-ts' },
  { name: 'editor', description: 'write the prompt in $VISUAL or $EDITOR (also Ctrl-O)' },
];

/**
 * The prompt editor: multi-line, the work dir's history on ↑/↓ (newest first), `/` completes slash
 * commands with their descriptions and `@` completes paths in the work dir; long pastes show as a
 * placeholder.
 */
export function createPromptEditor(
  tui: TUI,
  style: TuiStyle,
  options: {
    workDir: string;
    commands: readonly SlashCommand[];
    history: readonly string[];
    /** Whether `@` completion may ask git (a trusted work dir only). */
    gitAllowed: () => boolean;
  },
): Editor {
  const editor = new Editor(tui, style.editor, { paddingX: 1 });
  // The list draws names and descriptions as they are: a skill's come from its SKILL.md. A name the
  // sanitiser would change is not offered (completing it would put it in the editor as it is).
  const commands: (SlashCommand | AutocompleteItem)[] = options.commands
    .filter((command) => sanitizeForTerminal(command.name) === command.name)
    .map((command) =>
      command.description === undefined
        ? command
        : { ...command, description: sanitizeForTerminal(command.description) },
    );
  const slashCommands = new CombinedAutocompleteProvider(commands, options.workDir, null);
  editor.setAutocompleteProvider(new PathCompletion(slashCommands, options.workDir, options.gitAllowed));
  // addToHistory puts each entry first: add the oldest first.
  for (const entry of options.history.slice(0, EDITOR_HISTORY).reverse()) editor.addToHistory(entry);
  return editor;
}
