import type { TUI } from '@mariozechner/pi-tui';
import { type SafeComponent, SafeContainer } from './safe-component.js';

/**
 * The one owner of the panel slot (above the prompt editor), where approval and question panels,
 * the pickers and the history search show, one at a time. Whoever shows something goes through
 * it, and is told when it is taken away by anyone else (an approval pushing a picker aside).
 */
export class PanelSlot {
  /** The slot's place among the TUI's children. */
  readonly container = new SafeContainer();
  private shown: { component: SafeComponent; onRemoved: () => void } | null = null;

  constructor(private readonly tui: TUI) {}

  get isEmpty(): boolean {
    return this.shown === null;
  }

  isShowing(component: SafeComponent): boolean {
    return this.shown?.component === component;
  }

  /** Shows `component`; what was there is removed (its owner told through `onRemoved`). */
  show(component: SafeComponent, onRemoved: () => void = () => {}): void {
    const previous = this.shown;
    this.shown = { component, onRemoved };
    this.container.clear();
    this.container.addChild(component);
    if (previous && previous.component !== component) previous.onRemoved();
    this.tui.requestRender();
  }

  /** Empties the slot; what was there is removed (its owner told through `onRemoved`). */
  clear(): void {
    const previous = this.shown;
    this.shown = null;
    this.container.clear();
    previous?.onRemoved();
    this.tui.requestRender();
  }
}
