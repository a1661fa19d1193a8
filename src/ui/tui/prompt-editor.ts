import {
  type AutocompleteItem,
  CombinedAutocompleteProvider,
  Editor,
  KeybindingsManager,
  type SlashCommand,
  setKeybindings,
  type TUI,
  TUI_KEYBINDINGS,
} from '@mariozechner/pi-tui';
import { PathCompletion } from './path-completion.js';
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
 * Kimi CLI's keys for a new line in the prompt (Ctrl-J, Alt-Enter) next to Shift-Enter. The key map
 * is the library's one global map, set once.
 */
export function useKimiKeys(): void {
  setKeybindings(
    new KeybindingsManager(TUI_KEYBINDINGS, {
      'tui.input.newLine': ['shift+enter', 'ctrl+j', 'alt+enter'],
    }),
  );
}

/**
 * The prompt editor: multi-line, the work dir's history on ↑/↓ (newest first), `/` completes slash
 * commands with their descriptions and `@` completes paths in the work dir; long pastes show as a
 * placeholder.
 */
export function createPromptEditor(
  tui: TUI,
  style: TuiStyle,
  options: { workDir: string; commands: readonly SlashCommand[]; history: readonly string[] },
): Editor {
  const editor = new Editor(tui, style.editor, { paddingX: 1 });
  const commands: (SlashCommand | AutocompleteItem)[] = [...options.commands];
  const slashCommands = new CombinedAutocompleteProvider(commands, options.workDir, null);
  editor.setAutocompleteProvider(new PathCompletion(slashCommands, options.workDir));
  // addToHistory puts each entry first: add the oldest first.
  for (const entry of options.history.slice(0, EDITOR_HISTORY).reverse()) editor.addToHistory(entry);
  return editor;
}
