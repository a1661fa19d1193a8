import { TUI } from '@mariozechner/pi-tui';
import { describe, expect, it } from 'vitest';
import { dispatchKey } from './key-bindings.js';
import { createPromptEditor, useKimiKeys } from './prompt-editor.js';
import { HeadlessTerminal } from './test-support/headless-terminal.js';
import { tuiKeyTable } from './tui-key-table.js';
import { tuiStyle } from './tui-style.js';

const KEY = { esc: '\x1b', ctrlC: '\x03', ctrlD: '\x04', ctrlS: '\x13', enter: '\r', shiftTab: '\x1b[Z' };

/** The key table over a real prompt editor; `state` says whether a job runs and a panel shows. */
function table(state: { running: boolean; panel: boolean }) {
  useKimiKeys();
  const tui = new TUI(new HeadlessTerminal(80, 24));
  const editor = createPromptEditor(tui, tuiStyle(false), {
    workDir: '/nowhere',
    commands: [],
    history: [],
    gitAllowed: () => false,
  });
  const done: string[] = [];
  const bindings = tuiKeyTable({
    editor,
    isPanelShowing: () => state.panel,
    isJobRunning: () => state.running,
    interrupt: () => done.push('interrupt'),
    leave: () => done.push('leave'),
    cancelJob: () => done.push('cancel'),
    togglePlanMode: () => done.push('plan'),
    openEditor: () => done.push('editor'),
    toggleLastResult: () => done.push('expand'),
    steer: () => done.push('steer'),
  });
  return { editor, done, press: (key: string) => dispatchKey(bindings, key) };
}

describe('the TUI key table', () => {
  it('Esc cancels a running job, and is left to the editor or the panel otherwise', () => {
    const state = { running: false, panel: false };
    const { done, press } = table(state);
    expect(press(KEY.esc)).toBe(false);
    state.running = true;
    state.panel = true;
    expect(press(KEY.esc)).toBe(false);
    state.panel = false;
    expect(press(KEY.esc)).toBe(true);
    expect(done).toEqual(['cancel']);
  });

  it('Ctrl-D leaves only at an empty prompt with no job and no panel', () => {
    const state = { running: true, panel: false };
    const { editor, done, press } = table(state);
    expect(press(KEY.ctrlD)).toBe(false);
    state.running = false;
    editor.setText('draft');
    expect(press(KEY.ctrlD)).toBe(false);
    editor.setText('');
    expect(press(KEY.ctrlD)).toBe(true);
    expect(done).toEqual(['leave']);
  });

  it('Enter on /exit leaves (the prompt emptied); Enter on other text is the editor’s', () => {
    const { editor, done, press } = table({ running: false, panel: false });
    editor.setText('exit please');
    expect(press(KEY.enter)).toBe(false);
    editor.setText('  /quit ');
    expect(press(KEY.enter)).toBe(true);
    expect(editor.getText()).toBe('');
    expect(done).toEqual(['leave']);
  });

  it('Ctrl-C is always the TUI’s; Ctrl-S steers only a running job; a panel keeps Shift-Tab', () => {
    const state = { running: false, panel: true };
    const { done, press } = table(state);
    expect(press(KEY.ctrlC)).toBe(true);
    expect(press(KEY.shiftTab)).toBe(false);
    expect(press(KEY.ctrlS)).toBe(false);
    state.panel = false;
    expect(press(KEY.ctrlS)).toBe(false);
    state.running = true;
    expect(press(KEY.ctrlS)).toBe(true);
    expect(press(KEY.shiftTab)).toBe(true);
    expect(done).toEqual(['interrupt', 'steer', 'plan']);
  });
});
