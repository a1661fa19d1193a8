import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolOk } from '../kosong/tool.js';
import { runWithWire } from '../wire/current-wire.js';
import type { ToolCallRequest } from '../wire/requests.js';
import { Wire } from '../wire/wire.js';
import { Approval } from './approval/approval.js';
import { isExternalTool, registerExternalTools, TURN_ENDED_MESSAGE } from './external-tool.js';
import { KimiToolset } from './kimi-toolset.js';
import { cleanDispatch, toolCall } from './test-support/dispatch.js';
import { testPolicy } from './test-support/test-policy.js';
import { defineTool } from './tool-definition.js';

const schema = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };

/** A toolset that would have to ask the user for any side effect (nothing auto-approves). */
function setup() {
  const approval = new Approval();
  const asked: string[] = [];
  approval.runtime.subscribe((event) => {
    if (event.type === 'request_created') asked.push(event.record.action);
  });
  const toolset = new KimiToolset({ policy: testPolicy({ workDir: process.cwd(), approval }), approval });
  toolset.add(
    defineTool({
      name: 'ReadFile',
      description: 'built-in',
      params: z.object({}),
      effect: 'read-only',
      call: () => toolOk(''),
    }),
  );
  return { toolset, asked };
}

/** Resolves with the next ToolCallRequest sent on the wire. */
async function nextToolCallRequest(wire: Wire): Promise<ToolCallRequest> {
  const subscription = wire.subscribe({ merge: false });
  for await (const message of subscription) {
    if (message.type === 'ToolCallRequest') {
      subscription.close();
      return message;
    }
  }
  throw new Error('the wire ended without a ToolCallRequest');
}

describe('registerExternalTools', () => {
  it('accepts new tools, rejects collisions and malformed ones with a reason, and replaces its own', () => {
    const { toolset } = setup();
    const first = registerExternalTools(toolset, [
      { name: 'open_in_ide', description: 'Opens a file in the editor.', parameters: schema },
      { name: 'ReadFile', description: 'mine', parameters: schema },
      { name: 'bad name', description: 'x', parameters: schema },
      { name: 'scalar', description: 'x', parameters: { type: 'string' } },
    ]);
    expect(first).toEqual({
      accepted: ['open_in_ide'],
      rejected: [
        { name: 'ReadFile', reason: 'a tool named "ReadFile" already exists in this session' },
        { name: 'bad name', reason: 'the name must be 1-64 letters, digits, "_" or "-"' },
        { name: 'scalar', reason: 'the parameters schema must describe an object (type "object")' },
      ],
    });
    expect(toolset.find('ReadFile')?.description).toBe('built-in');

    const again = registerExternalTools(toolset, [
      { name: 'open_in_ide', description: 'Newer.', parameters: schema },
    ]);
    expect(again).toEqual({ accepted: ['open_in_ide'], rejected: [] });
    const tool = toolset.find('open_in_ide')!;
    expect(isExternalTool(tool)).toBe(true);
    expect(toolset.tools.find((t) => t.name === 'open_in_ide')).toEqual({
      name: 'open_in_ide',
      description: 'Newer.',
      parameters: schema,
    });
  });
});

describe('calling an external tool', () => {
  it('sends a ToolCallRequest and returns the client’s result, without asking for approval', async () => {
    const { toolset, asked } = setup();
    registerExternalTools(toolset, [
      { name: 'open_in_ide', description: 'Opens a file.', parameters: schema },
    ]);
    const wire = new Wire();
    const requested = nextToolCallRequest(wire);
    const result = runWithWire(wire, () =>
      Promise.resolve(toolset.handle(toolCall('call-1', 'open_in_ide', { path: 'a.ts' }), cleanDispatch())),
    );

    const request = await requested;
    expect(request.payload).toEqual({ id: 'call-1', name: 'open_in_ide', arguments: '{"path":"a.ts"}' });
    request.resolve(toolOk('opened', '', 'Opened a.ts'));
    expect((await result).return_value).toMatchObject({ is_error: false, output: 'opened' });
    expect(asked).toEqual([]);
    wire.shutdown();
  });

  it('ends cleanly when the turn is cancelled before the client answers', async () => {
    const { toolset } = setup();
    registerExternalTools(toolset, [
      { name: 'open_in_ide', description: 'Opens a file.', parameters: schema },
    ]);
    const wire = new Wire();
    const requested = nextToolCallRequest(wire);
    const controller = new AbortController();
    const result = runWithWire(wire, () =>
      Promise.resolve(
        toolset.handle(toolCall('call-2', 'open_in_ide', { path: 'b.ts' }), cleanDispatch(controller.signal)),
      ),
    );
    const request = await requested;
    controller.abort(new Error('turn cancelled'));

    expect((await result).return_value).toMatchObject({
      is_error: true,
      message: TURN_ENDED_MESSAGE,
      display: [{ type: 'brief', text: 'Turn ended' }],
    });
    expect(request.state.status).toBe('cancelled');
    expect(wire.pendingRequests).toEqual([]);
    wire.shutdown();
  });
});
