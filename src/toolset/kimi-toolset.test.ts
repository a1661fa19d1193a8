import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { gate } from '../../test/support/loopback-server.js';
import { type ToolReturnValue, toolOk } from '../kosong/index.js';
import { currentToolCall } from './current-tool-call.js';
import { KimiToolset } from './kimi-toolset.js';
import type { ToolTelemetryEvent } from './telemetry.js';
import { cleanDispatch, dispatchAll, toolCall } from './test-support/dispatch.js';
import { testPolicy, withTestPolicy } from './test-support/test-policy.js';
import { defineTool, type KimiTool } from './tool-definition.js';
import { toolErrorKind } from './tool-errors.js';

const echo = (onCall: (text: string) => void = () => {}): KimiTool =>
  defineTool({
    name: 'Echo',
    description: 'Echoes its text.',
    params: z.object({ text: z.string() }),
    effect: 'read-only',
    call: ({ text }) => {
      onCall(text);
      return toolOk(text);
    },
  });

describe('KimiToolset.handle', () => {
  it('answers an unknown tool, unparsable and invalid arguments with error results, at once', async () => {
    const toolset = new KimiToolset({ policy: testPolicy({ workDir: process.cwd() }) });
    toolset.add(echo());
    const unknown = toolset.handle(toolCall('1', 'Nope', {}), cleanDispatch());
    const unparsable = toolset.handle(toolCall('2', 'Echo', '{"text": '), cleanDispatch());
    expect(unknown).not.toBeInstanceOf(Promise);
    expect(unparsable).not.toBeInstanceOf(Promise);
    expect(unknown).toMatchObject({
      tool_call_id: '1',
      return_value: { is_error: true, message: 'Tool `Nope` not found' },
    });
    expect((unparsable as { return_value: ToolReturnValue }).return_value.message).toMatch(
      /^Error parsing JSON arguments: /,
    );

    const [invalid] = await dispatchAll(toolset, [toolCall('3', 'Echo', { text: 42 })]);
    expect(invalid!.return_value.is_error).toBe(true);
    expect(invalid!.return_value.message).toMatch(/^Error validating JSON arguments: .*text/s);
  });

  it('accepts raw newlines inside argument strings and treats blank arguments as {}', async () => {
    const seen: string[] = [];
    const toolset = new KimiToolset({ policy: testPolicy({ workDir: process.cwd() }) });
    toolset.add(echo((text) => seen.push(text)));
    toolset.add(
      defineTool({
        name: 'NoArgs',
        description: '',
        params: z.object({}),
        effect: 'read-only',
        call: () => toolOk('none'),
      }),
    );
    const results = await dispatchAll(toolset, [
      toolCall('1', 'Echo', '{"text": "a\nb"}'),
      toolCall('2', 'NoArgs', ''),
    ]);
    expect(seen).toEqual(['a\nb']);
    expect(results.map((r) => r.return_value.output)).toEqual(['a\nb', 'none']);
  });

  it('turns an exception or a malformed return value into a runtime-error result', async () => {
    const toolset = new KimiToolset({ policy: testPolicy({ workDir: process.cwd() }) });
    toolset.add(
      defineTool({
        name: 'Boom',
        description: '',
        params: z.object({}),
        effect: 'read-only',
        call: () => {
          throw new Error('disk on fire');
        },
      }),
    );
    toolset.add(
      defineTool({
        name: 'Odd',
        description: '',
        params: z.object({}),
        effect: 'read-only',
        call: () => 'text' as never,
      }),
    );
    const [boom, odd] = await dispatchAll(toolset, [toolCall('1', 'Boom', {}), toolCall('2', 'Odd', {})]);
    expect(boom!.return_value).toMatchObject({ is_error: true, message: 'Error running tool: disk on fire' });
    expect(toolErrorKind(boom!.return_value)).toBe('runtime');
    expect(odd!.return_value.message).toMatch(/returned string instead of a tool result/);
  });

  it('gives each of concurrent calls its own call, across awaits, without an AsyncLocalStorage', async () => {
    const seen: (string | undefined)[] = [];
    const toolset = new KimiToolset({ policy: testPolicy({ workDir: process.cwd() }) });
    toolset.add(
      defineTool({
        name: 'Who',
        description: '',
        params: z.object({ n: z.number() }),
        effect: 'read-only',
        call: async (_params, ctx) => {
          seen.push(ctx.scope?.toolCall.id);
          await new Promise((resolve) => setImmediate(resolve));
          seen.push(ctx.scope?.toolCall.id === ctx.toolCall.id ? ctx.toolCall.id : 'mixed up');
          // The call is passed down, not kept in current-tool-call.ts's store (issue #26).
          seen.push(currentToolCall()?.id);
          return toolOk();
        },
      }),
    );
    await dispatchAll(toolset, [toolCall('a', 'Who', { n: 1 }), toolCall('b', 'Who', { n: 2 })]);
    expect(seen.filter((id) => id !== undefined).sort()).toEqual(['a', 'a', 'b', 'b']);
    expect(seen.filter((id) => id === undefined)).toHaveLength(2);
    expect(currentToolCall()).toBeUndefined();
  });

  it('runs the calls of one step concurrently', async () => {
    const firstStarted = gate();
    const secondStarted = gate();
    const toolset = new KimiToolset({ policy: testPolicy({ workDir: process.cwd() }) });
    toolset.add(
      defineTool({
        name: 'Meet',
        description: '',
        params: z.object({ side: z.enum(['a', 'b']) }),
        effect: 'read-only',
        // Each call waits for the other to have started: only concurrent execution finishes.
        call: async ({ side }) => {
          (side === 'a' ? firstStarted : secondStarted).open();
          await (side === 'a' ? secondStarted : firstStarted).promise;
          return toolOk(side);
        },
      }),
    );
    const results = await dispatchAll(toolset, [
      toolCall('1', 'Meet', { side: 'a' }),
      toolCall('2', 'Meet', { side: 'b' }),
    ]);
    expect(results.map((r) => r.return_value.output)).toEqual(['a', 'b']);
  });

  it('runs an identical call of the same step once and shares its result under each call id', async () => {
    let runs = 0;
    const toolset = new KimiToolset({ policy: testPolicy({ workDir: process.cwd() }) });
    toolset.add(echo(() => runs++));
    toolset.beginStep();
    const results = await dispatchAll(toolset, [
      toolCall('1', 'Echo', '{"text":"x"}'),
      toolCall('2', 'Echo', '{ "text" : "x" }'),
      toolCall('3', 'Echo', '{"text":"y"}'),
    ]);
    expect(runs).toBe(2);
    expect(results.map((r) => [r.tool_call_id, r.return_value.output])).toEqual([
      ['1', 'x'],
      ['2', 'x'],
      ['3', 'y'],
    ]);
    expect(results[1]!.return_value).not.toBe(results[0]!.return_value);
  });

  it('keeps hidden tools callable but does not advertise them', async () => {
    const toolset = new KimiToolset({ policy: testPolicy({ workDir: process.cwd() }) });
    toolset.add(echo());
    expect(toolset.hide('Echo')).toBe(true);
    expect(toolset.tools).toEqual([]);
    const [result] = await dispatchAll(toolset, [toolCall('1', 'Echo', { text: 'still here' })]);
    expect(result!.return_value.output).toBe('still here');
    toolset.unhide('Echo');
    expect(toolset.tools.map((t) => t.name)).toEqual(['Echo']);
    expect(toolset.tools[0]!.parameters).toEqual({
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
    });
  });

  it('sends telemetry to a pluggable sink (tool, outcome, duration, duplicate type) and survives a broken sink', async () => {
    const events: ToolTelemetryEvent[] = [];
    const toolset = new KimiToolset({
      policy: testPolicy({ workDir: process.cwd() }),
      telemetry: { record: (event) => events.push(event) },
    });
    toolset.add(echo());
    toolset.beginStep();
    await dispatchAll(toolset, [toolCall('1', 'Echo', { text: 'x' }), toolCall('2', 'Echo', { text: 'x' })]);
    const previous = toolset.endStep();
    toolset.beginStep(previous);
    await dispatchAll(toolset, [toolCall('3', 'Echo', { text: 'x' })]);
    expect(
      events.map((e) => (e.event === 'tool_call' ? [e.tool_call_id, e.outcome, e.duplicate_type] : e.event)),
    ).toEqual([
      ['1', 'ok', 'none'],
      ['2', 'ok', 'same_step'],
      // x, x, x: the third identical call in a row (two in step 1 count individually) reaches r1.
      'tool_call_repeat',
      ['3', 'ok', 'cross_step'],
    ]);
    expect(events[0]).toMatchObject({ tool_name: 'Echo', args_hash: expect.stringMatching(/^[0-9a-f]{8}$/) });
    expect(typeof (events[0] as { duration_ms: number }).duration_ms).toBe('number');

    const broken = new KimiToolset(
      withTestPolicy({
        telemetry: {
          record: () => {
            throw new Error('sink down');
          },
        },
      }),
    );
    broken.add(echo());
    const [result] = await dispatchAll(broken, [toolCall('1', 'Echo', { text: 'fine' })]);
    expect(result!.return_value.output).toBe('fine');
  });

  it('replaces a tool in place, hidden or not, and insists on the same name', async () => {
    const toolset = new KimiToolset({ policy: testPolicy({ workDir: process.cwd() }) });
    toolset.add(echo());
    toolset.hide('Echo');
    const replaced = toolset.replace('Echo', (current) => ({
      ...current,
      call: () => toolOk('replaced'),
    }));
    expect(replaced).toBe(true);
    expect(toolset.tools).toEqual([]);
    const [result] = await dispatchAll(toolset, [toolCall('1', 'Echo', { text: 'x' })]);
    expect(result!.return_value.output).toBe('replaced');
    expect(toolset.replace('Nope', (current) => current)).toBe(false);
    expect(() => toolset.replace('Echo', (current) => ({ ...current, name: 'Other' }))).toThrow(
      /keep its name/,
    );
  });

  it('refuses to register two tools with one name', () => {
    const toolset = new KimiToolset({ policy: testPolicy({ workDir: process.cwd() }) });
    toolset.add(echo());
    expect(() => toolset.add(echo())).toThrow(/already registered/);
  });
});
