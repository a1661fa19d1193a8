import type { Component, Focusable, TUI } from '@mariozechner/pi-tui';
import type { ApprovalRequest, QuestionRequest } from '../../wire/requests.js';
import { approvalQueueLine } from '../common/asking-agent.js';
import { ApprovalPanel } from './approval-panel.js';
import type { PanelSlot } from './panel-slot.js';
import { PlanPanel } from './plan-panel.js';
import type { PlanView } from './plan-view.js';
import { QuestionPanel } from './question-panel.js';
import type { TuiStyle } from './tui-style.js';

export type Panel = ApprovalPanel | QuestionPanel | PlanPanel;

/** What the queue needs of the TUI: where panels show, and what has the keys when none does. */
export interface PanelQueueHost {
  tui: TUI;
  slot: PanelSlot;
  style: TuiStyle;
  /** The prompt editor, focused again when no panel waits. */
  editor: Component & Focusable;
  /** The clock the approval panels arm by (tests move it). */
  now?: () => number;
}

/**
 * Requests wait their turn: one panel at a time in the panel slot, focused instead of the editor. A
 * question about a plan gets the plan panel; other questions and approvals their own panels. This is
 * the one queue of the session: the main agent's requests and every subagent's (foreground,
 * background, several at once) come here in the order they asked; an approval panel says its place
 * and which agent asks. Each panel answers only its own request, and arms itself when it shows.
 */
export class PanelQueue {
  private readonly panels: Panel[] = [];

  constructor(private readonly host: PanelQueueHost) {}

  /** Whether a panel is on screen (it has the keys). */
  get isShowing(): boolean {
    return this.panels.length > 0;
  }

  ask(request: ApprovalRequest | QuestionRequest, plan?: PlanView): void {
    const { style, tui } = this.host;
    const onDone = () => {
      this.panels.splice(this.panels.indexOf(panel), 1);
      this.showNext();
    };
    const panel: Panel =
      request.type === 'ApprovalRequest'
        ? new ApprovalPanel(
            request,
            style,
            onDone,
            this.host.now ?? Date.now,
            () => approvalQueueLine(request.payload, this.panels.indexOf(panel) + 1, this.panels.length),
            () => tui.terminal.rows,
          )
        : plan && PlanPanel.fits(request)
          ? new PlanPanel(request, plan, style, onDone, { rows: () => tui.terminal.rows })
          : new QuestionPanel(request, style, onDone);
    this.panels.push(panel);
    if (this.panels.length === 1) this.showNext();
  }

  /** Shows the first waiting panel, or gives the keys back to the editor. */
  showNext(): void {
    const { slot, tui } = this.host;
    const panel = this.panels[0];
    if (panel) {
      slot.show(panel);
      tui.setFocus(panel);
      // Between turns nothing else redraws: show the key hint once the panel takes keys.
      panel.arm.onArmed = () => tui.requestRender();
    } else {
      slot.clear();
      tui.setFocus(this.host.editor);
    }
    tui.requestRender();
  }

  /** Closes the panels whose requests were answered or cancelled elsewhere. */
  checkStillPending(): void {
    for (const panel of [...this.panels]) panel.checkStillPending();
  }
}
