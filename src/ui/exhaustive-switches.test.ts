import { describe, expect, expectTypeOf, test } from 'vitest';
import { assertNever } from '../util/assert-never.js';
import type { EVENT_TYPES } from '../wire/events.js';
import { isWireRequest, type WireMessage, type WireMessageType } from '../wire/message.js';
import { wireMessageToJSON } from '../wire/message-json.js';
import type { REQUEST_TYPES, WireRequest } from '../wire/requests.js';
import { EVERY_MESSAGE } from '../wire/test-support/every-message.js';
import { SessionUpdateTranslator } from './acp/session-updates.js';
import { PrintFormatter } from './print/print-formatter.js';
import { ShellRenderer } from './shell/shell-renderer.js';
import { tuiStyle } from './tui/tui-style.js';
import { TurnView } from './tui/turn-view.js';
import { SessionModelBuilder } from './vis/model/session-model-builder.js';
import { applyItemEvent } from './web/page/conversation-items.js';

/** A message type a later version might add. */
type FutureMessage = { type: 'FutureEvent'; payload: Record<string, never> };

/** A switch written like the front ends', over today's message types only. */
function handledToday(message: WireMessage | FutureMessage): void {
  switch (message.type) {
    case 'TurnBegin':
    case 'SteerInput':
    case 'TurnEnd':
    case 'StepBegin':
    case 'StepInterrupted':
    case 'StepRetry':
    case 'HookTriggered':
    case 'HookResolved':
    case 'CompactionBegin':
    case 'CompactionEnd':
    case 'MCPLoadingBegin':
    case 'MCPLoadingEnd':
    case 'StatusUpdate':
    case 'Notification':
    case 'ContentPart':
    case 'ToolCall':
    case 'ToolCallPart':
    case 'ToolResult':
    case 'ApprovalResponse':
    case 'SubagentEvent':
    case 'PlanDisplay':
    case 'BtwBegin':
    case 'BtwEnd':
    case 'RewindDone':
    case 'ApprovalRequest':
    case 'ToolCallRequest':
    case 'QuestionRequest':
    case 'HookRequest':
      return;
  }
  // `npm run typecheck` proves the point: were FutureEvent handled (or the directive wrong), this
  // line would compile and the unused directive would fail the check.
  // @ts-expect-error FutureEvent reaches assertNever: an unhandled message type does not compile.
  assertNever(message);
}

// The front ends: print, shell, ACP, the TUI, the web page, vis; wire mode (stdio and WebSocket)
// forwards every message through the wire's JSON codec.
describe('every front end switches over every wire message', () => {
  test('the switches take the whole union of messages', () => {
    expectTypeOf<Parameters<PrintFormatter['handle']>[0]>().toEqualTypeOf<WireMessage>();
    expectTypeOf<Parameters<ShellRenderer['handle']>[0]>().toEqualTypeOf<WireMessage>();
    expectTypeOf<Parameters<SessionUpdateTranslator['translate']>[0]>().toEqualTypeOf<WireMessage>();
    expectTypeOf<Parameters<TurnView['handle']>[0]>().toEqualTypeOf<WireMessage>();
    // The page gets requests as JSON-RPC requests of their own; its switch takes every event.
    expectTypeOf<Parameters<typeof applyItemEvent>[1]>().toEqualTypeOf<Exclude<WireMessage, WireRequest>>();
    expectTypeOf<WireMessageType>().toEqualTypeOf<
      (typeof EVENT_TYPES)[number] | (typeof REQUEST_TYPES)[number]
    >();
  });

  test('each handles a message of every type without reaching assertNever', () => {
    const formatters = [
      new PrintFormatter(
        'stream-json',
        { out: () => {}, progress: () => {} },
        { finalMessageOnly: false, workDir: '/w' },
      ),
      new PrintFormatter(
        'text',
        { out: () => {}, progress: () => {} },
        { finalMessageOnly: false, workDir: '/w' },
      ),
    ];
    const renderer = new ShellRenderer(() => {}, '/w');
    const translator = new SessionUpdateTranslator('/w');
    const turnView = new TurnView({ style: tuiStyle(false), workDir: '/w', thinking: 'stream' });
    const vis = new SessionModelBuilder('s', 'every message');
    for (const [i, message] of EVERY_MESSAGE.entries()) {
      for (const formatter of formatters) expect(() => formatter.handle(message)).not.toThrow();
      expect(() => renderer.handle(message)).not.toThrow();
      expect(() => translator.translate(message)).not.toThrow();
      expect(() => turnView.handle(message)).not.toThrow();
      if (!isWireRequest(message)) expect(() => applyItemEvent([], message)).not.toThrow();
      const json = wireMessageToJSON(message);
      expect(vis.addLine(JSON.stringify({ timestamp: i + 1, message: json }))).toBe(true);
    }
    const model = vis.finish(true);
    expect(model.unknownTypes).toEqual({});
    expect(model.problems).toEqual([]);
  });

  test('a message of an unknown type that slipped past the types throws', () => {
    expect(() => handledToday({ type: 'FutureEvent', payload: {} })).toThrow('Unexpected value: FutureEvent');
    const future = { type: 'FutureEvent', payload: {} } as unknown as WireMessage;
    expect(() => new ShellRenderer(() => {}, '/w').handle(future)).toThrow(
      'Unexpected wire message: FutureEvent',
    );
    expect(() => new SessionUpdateTranslator('/w').translate(future)).toThrow(
      'Unexpected wire message: FutureEvent',
    );
    expect(() =>
      new TurnView({ style: tuiStyle(false), workDir: '/w', thinking: 'stream' }).handle(future),
    ).toThrow('FutureEvent');
    expect(() => applyItemEvent([], future as Parameters<typeof applyItemEvent>[1])).toThrow('FutureEvent');
  });

  test('vis, which reads files a later version may have written, counts an unknown type', () => {
    const vis = new SessionModelBuilder('s', 'future');
    vis.addLine(JSON.stringify({ timestamp: 1, message: { type: 'FutureEvent', payload: {} } }));
    expect(vis.finish(true).unknownTypes).toEqual({ FutureEvent: 1 });
  });
});
