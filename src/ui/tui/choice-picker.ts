import { matchesKey, SelectList } from '@mariozechner/pi-tui';
import { type TerminalSafe, terminalText as t, trustedLiteral } from '../../util/sanitize-terminal.js';
import { ARM_DELAY_MS, ArmDelay } from './arm-delay.js';
import type { SafeComponent } from './safe-component.js';
import { fitLine } from './terminal-lines.js';
import type { TuiStyle } from './tui-style.js';

/**
 * Keys arriving this soon after the picker was first drawn choose nothing (as in the approval panel):
 * an Enter typed ahead must not pick the item that happens to be selected. Esc and Ctrl-C still
 * leave at once: leaving does nothing.
 */
export const PICKER_ARM_DELAY_MS = ARM_DELAY_MS;

/** What a key did to the picker: nothing yet, or it ended with an item's value chosen (or none). */
export type PickerOutcome = { done: false } | { done: true; chosen: string | null };

/**
 * An item to choose: its label and description are drawn as they are (pi-tui's SelectList), so
 * they are safe text; the value is what choosing it gives back.
 */
export interface SafeSelectItem {
  value: string;
  label: TerminalSafe;
  description?: TerminalSafe;
}

/** Rows shown at once; more scroll. */
const VISIBLE_ROWS = 10;

/**
 * A list to choose one item from (`/sessions`, `/undo`): ↑/↓ move, Enter chooses, Esc or Ctrl-C
 * leave without choosing. Labels and descriptions must already be safe for the terminal. Keys
 * arrive through `handleKey` (the caller routes them while it is open).
 */
export class ChoicePicker implements SafeComponent {
  private readonly list: SelectList;
  private outcome: PickerOutcome = { done: false };
  /** Keys count from a moment after the first frame; the caller sets `arm.onArmed` to redraw then. */
  readonly arm: ArmDelay;

  constructor(
    private readonly title: TerminalSafe,
    items: SafeSelectItem[],
    private readonly style: TuiStyle,
    /** The item selected at first. */
    initial = 0,
    /** What Enter does, for the hint line. */
    private readonly enterDoes: 'opens' | 'chooses' | 'switches' | 'answers' = 'opens',
    now: () => number = Date.now,
  ) {
    this.arm = new ArmDelay(now);
    this.list = new SelectList(items, VISIBLE_ROWS, style.editor.selectList, { maxPrimaryColumnWidth: 60 });
    this.list.setSelectedIndex(initial);
    this.list.onSelect = (item) => {
      this.outcome = { done: true, chosen: item.value };
    };
    this.list.onCancel = () => {
      this.outcome = { done: true, chosen: null };
    };
  }

  /** Whether keys move and choose yet (false for the first moments after it appeared). */
  get isArmed(): boolean {
    return this.arm.isArmed;
  }

  handleKey(data: string): PickerOutcome {
    if (matchesKey(data, 'ctrl+c') || matchesKey(data, 'escape')) return { done: true, chosen: null };
    if (!this.isArmed) return { done: false };
    this.list.handleInput(data);
    return this.outcome;
  }

  render(width: number): TerminalSafe[] {
    this.arm.markShown();
    const hint = t`\u2191/\u2193 choose \u00B7 Enter ${trustedLiteral(this.enterDoes)} \u00B7 Esc leaves`;
    return [
      fitLine(this.style.border(t`${'\u2500'.repeat(width) as TerminalSafe}`), width),
      fitLine(this.style.bold(this.title), width),
      // The list draws the items' safe labels and descriptions with our styles.
      ...(this.list.render(width) as TerminalSafe[]),
      fitLine(this.style.dim(this.isArmed ? hint : trustedLiteral('  …')), width),
    ];
  }

  invalidate(): void {
    this.list.invalidate();
  }
}
