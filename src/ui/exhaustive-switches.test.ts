import { describe, expect, expectTypeOf, test } from 'vitest';
import { assertNever } from '../util/assert-never.js';
import type { EVENT_TYPES } from '../wire/events.js';
import type { WireMessage, WireMessageType } from '../wire/message.js';
import type { REQUEST_TYPES } from '../wire/requests.js';
import { EVERY_MESSAGE } from '../wire/test-support/every-message.js';
import { SessionUpdateTranslator } from './acp/session-updates.js';
import { PrintFormatter } from './print/print-formatter.js';
import { ShellRenderer } from './shell/shell-renderer.js';

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

describe('every front end switches over every wire message', () => {
  test('the switches take the whole union of messages', () => {
    expectTypeOf<Parameters<PrintFormatter['handle']>[0]>().toEqualTypeOf<WireMessage>();
    expectTypeOf<Parameters<ShellRenderer['handle']>[0]>().toEqualTypeOf<WireMessage>();
    expectTypeOf<Parameters<SessionUpdateTranslator['translate']>[0]>().toEqualTypeOf<WireMessage>();
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
    for (const message of EVERY_MESSAGE) {
      for (const formatter of formatters) expect(() => formatter.handle(message)).not.toThrow();
      expect(() => renderer.handle(message)).not.toThrow();
      expect(() => translator.translate(message)).not.toThrow();
    }
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
  });
});
