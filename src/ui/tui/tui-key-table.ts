import type { Editor } from '@mariozechner/pi-tui';
import type { KeyBinding } from './key-bindings.js';

/** What the TUI's own keys look at and do. */
export interface TuiKeyActions {
  editor: Editor;
  /** A panel (approval, question, plan) has the keys. */
  isPanelShowing(): boolean;
  /** A turn or `!command` runs. */
  isJobRunning(): boolean;
  /** Ctrl-C: cancel, else clear the prompt, else leave when pressed twice. */
  interrupt(): void;
  leave(): void;
  cancelJob(): void;
  togglePlanMode(): void;
  openEditor(): void;
  toggleLastResult(): void;
  steer(): void;
}

/**
 * The TUI's keys and when each is the TUI's; any other key (or one whose binding does not apply)
 * goes on to the prompt editor or the panel that has the keys. Asked after the pickers' and the
 * history search's keys (`CommandPanels.handleKey`).
 */
export function tuiKeyTable(actions: TuiKeyActions): KeyBinding[] {
  const { editor } = actions;
  const noPanel = () => !actions.isPanelShowing();
  return [
    { key: 'ctrl+c', applies: () => true, run: () => actions.interrupt() },
    // Leaving must not depend on the completion menu: Enter on /exit leaves, menu open or not.
    {
      key: 'enter',
      applies: () => noPanel() && /^\/(exit|quit)$/.test(editor.getText().trim()),
      run: () => {
        editor.setText('');
        actions.leave();
      },
    },
    {
      key: 'escape',
      applies: () => actions.isJobRunning() && noPanel() && !editor.isShowingAutocomplete(),
      run: () => actions.cancelJob(),
    },
    { key: 'shift+tab', applies: noPanel, run: () => actions.togglePlanMode() },
    { key: 'ctrl+o', applies: noPanel, run: () => actions.openEditor() },
    { key: 'ctrl+e', applies: noPanel, run: () => actions.toggleLastResult() },
    {
      key: 'ctrl+d',
      applies: () => !actions.isJobRunning() && noPanel() && !editor.getText(),
      run: () => actions.leave(),
    },
    { key: 'ctrl+s', applies: () => actions.isJobRunning() && noPanel(), run: () => actions.steer() },
  ];
}
