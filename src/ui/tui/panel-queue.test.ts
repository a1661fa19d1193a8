import { Input, TUI } from '@mariozechner/pi-tui';
import { describe, expect, it } from 'vitest';
import type { ApprovalRequestData } from '../../wire/request-payloads.js';
import { ApprovalRequest } from '../../wire/requests.js';
import { APPROVAL_ARM_DELAY_MS, type ApprovalPanel } from './approval-panel.js';
import { PanelQueue } from './panel-queue.js';
import { PanelSlot } from './panel-slot.js';
import { HeadlessTerminal } from './test-support/headless-terminal.js';
import { tuiStyle } from './tui-style.js';

function approval(id: string, extra: Partial<ApprovalRequestData> = {}): ApprovalRequest {
  return new ApprovalRequest({
    id,
    tool_call_id: `call-${id}`,
    sender: 'Shell',
    action: 'run command',
    description: `Run command \`echo ${id}\``,
    display: [{ type: 'shell', language: 'bash', command: `echo ${id}` }],
    ...extra,
  });
}

function queue() {
  const tui = new TUI(new HeadlessTerminal(100, 40));
  const slot = new PanelSlot(tui);
  const editor = new Input();
  let now = 1_000;
  const panels = new PanelQueue({ tui, slot, style: tuiStyle(false), editor: () => editor, now: () => now });
  const shown = () => slot.container.children[0] as ApprovalPanel | undefined;
  return {
    panels,
    /** The panel on screen, drawn once (its arming delay starts at its first frame). */
    screen: () => (shown()?.render(100) ?? []).join('\n'),
    press: (key: string) => shown()?.handleInput(key),
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('PanelQueue: one approval queue across agents', () => {
  it('shows one request at a time, in order, with its place and the agent that asks (the main agent unmarked)', () => {
    const q = queue();
    const main = approval('main');
    const first = approval('a1-req', {
      agent_id: 'a1',
      subagent_type: 'coder',
      source_kind: 'foreground_turn',
      source_description: 'Fix the tests',
    });
    const second = approval('a2-req', {
      agent_id: 'a2',
      subagent_type: 'explore',
      source_kind: 'background_agent',
    });
    q.panels.ask(main);
    q.panels.ask(first);
    q.panels.ask(second);
    expect(q.screen()).toMatch(/^─+\n1 of 3\n\? Shell wants to run command/);
    q.advance(APPROVAL_ARM_DELAY_MS);
    q.press('1');
    expect(main.state).toEqual({
      status: 'resolved',
      answer: expect.objectContaining({ response: 'approve' }),
    });
    expect(q.screen()).toContain('1 of 2 · agent coder a1 — Fix the tests');
    // A key pressed at once (meant for the panel before) does not answer the next entry.
    q.press('3');
    expect(first.isPending).toBe(true);
    q.advance(APPROVAL_ARM_DELAY_MS);
    q.press('3');
    expect(first.state).toEqual({
      status: 'resolved',
      answer: expect.objectContaining({ response: 'reject' }),
    });
    // Each answer went to its own request: the last one still waits for its own.
    expect(second.isPending).toBe(true);
    expect(main.state).toEqual({
      status: 'resolved',
      answer: expect.objectContaining({ response: 'approve' }),
    });
    expect(q.screen()).toContain('background agent explore a2');
    expect(q.screen()).not.toContain(' of ');
  });

  it('closes an entry answered elsewhere (a session approval given to another agent) and moves on', () => {
    const q = queue();
    const first = approval('x', { agent_id: 'a1' });
    const second = approval('y', { agent_id: 'a2' });
    q.panels.ask(first);
    q.panels.ask(second);
    q.screen();
    second.resolve('approve', '');
    q.panels.checkStillPending();
    expect(q.screen()).toContain('agent a1');
    expect(q.screen()).not.toContain('of 2');
    expect(first.isPending).toBe(true);
  });

  it('shows an agent name with control characters or markup as text', () => {
    const q = queue();
    q.panels.ask(
      approval('evil', {
        agent_id: 'a1\x1b[2J\x1b]0;owned\x07',
        subagent_type: '<script>x</script>',
        source_description: `fix\u202eevil${'\u200b'.repeat(5)}`,
      }),
    );
    const screen = q.screen();
    expect(screen).not.toContain('\x1b');
    expect(screen).not.toContain('\x07');
    expect(screen).not.toContain('\u202e');
    expect(screen).toContain('agent <script>x</script> a1␛[2J');
    expect(screen).toMatch(/⟨U\+200B ×5⟩/);
  });
});
