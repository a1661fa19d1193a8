import {
  KeybindingsManager,
  setKeybindings,
  TUI_KEYBINDINGS,
} from '@mariozechner/pi-tui/dist/keybindings.js';

/**
 * Kimi CLI's keys for a new line in the prompt (Ctrl-J, Alt-Enter) next to Shift-Enter. The key map
 * is the library's one global map, set once. (Imported from the library's own module, not its index:
 * the start-up prompt loads only what its first frame needs.)
 */
export function useKimiKeys(): void {
  setKeybindings(
    new KeybindingsManager(TUI_KEYBINDINGS, {
      'tui.input.newLine': ['shift+enter', 'ctrl+j', 'alt+enter'],
    }),
  );
}
