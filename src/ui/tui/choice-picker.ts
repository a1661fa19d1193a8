import {
  type Component,
  matchesKey,
  type SelectItem,
  SelectList,
  truncateToWidth,
} from '@mariozechner/pi-tui';
import type { TuiStyle } from './tui-style.js';

/** What a key did to the picker: nothing yet, or it ended with an item's value chosen (or none). */
export type PickerOutcome = { done: false } | { done: true; chosen: string | null };

/** Rows shown at once; more scroll. */
const VISIBLE_ROWS = 10;

/**
 * A list to choose one item from (`/sessions`, `/undo`): ↑/↓ move, Enter chooses, Esc or Ctrl-C
 * leave without choosing. Labels and descriptions must already be safe for the terminal. Keys
 * arrive through `handleKey` (the caller routes them while it is open).
 */
export class ChoicePicker implements Component {
  private readonly list: SelectList;
  private outcome: PickerOutcome = { done: false };

  constructor(
    private readonly title: string,
    items: SelectItem[],
    private readonly style: TuiStyle,
    /** The item selected at first. */
    initial = 0,
  ) {
    this.list = new SelectList(items, VISIBLE_ROWS, style.editor.selectList, { maxPrimaryColumnWidth: 60 });
    this.list.setSelectedIndex(initial);
    this.list.onSelect = (item) => {
      this.outcome = { done: true, chosen: item.value };
    };
    this.list.onCancel = () => {
      this.outcome = { done: true, chosen: null };
    };
  }

  handleKey(data: string): PickerOutcome {
    if (matchesKey(data, 'ctrl+c')) return { done: true, chosen: null };
    this.list.handleInput(data);
    return this.outcome;
  }

  render(width: number): string[] {
    return [
      truncateToWidth(this.style.border('─'.repeat(width)), width),
      truncateToWidth(this.style.bold(this.title), width),
      ...this.list.render(width),
      truncateToWidth(this.style.dim('↑/↓ choose · Enter opens · Esc leaves'), width),
    ];
  }

  invalidate(): void {
    this.list.invalidate();
  }
}
