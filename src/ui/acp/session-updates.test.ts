import { describe, expect, it } from 'vitest';
import { streamedPartEvent, wireEvent } from '../../wire/events.js';
import { mcpServersConfig, promptToUserInput } from './acp-input.js';
import { SessionUpdateTranslator } from './session-updates.js';

const WORK = '/home/me/project';

describe('SessionUpdateTranslator', () => {
  it('streams text and thinking, and completes a tool call whose arguments arrived in pieces', () => {
    const t = new SessionUpdateTranslator(WORK);
    const updates = [
      wireEvent('TurnBegin', { user_input: 'hi' }),
      streamedPartEvent({ type: 'think', think: 'Let me look.' }),
      streamedPartEvent({ type: 'text', text: 'Reading ' }),
      streamedPartEvent({
        type: 'function',
        id: 'c1',
        function: { name: 'ReadFile', arguments: '{"path": "' },
      }),
      streamedPartEvent({ type: 'tool_call_part', arguments_part: `${WORK}/src/main.ts"}` }),
      wireEvent('ToolResult', {
        tool_call_id: 'c1',
        return_value: { is_error: false, output: '1\tconst x = 1;', message: 'Read 1 line.', display: [] },
      }),
    ].flatMap((message) => t.translate(message));
    expect(updates).toEqual([
      { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'Let me look.' } },
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Reading ' } },
      { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'ReadFile', kind: 'read', status: 'pending' },
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'c1',
        status: 'completed',
        title: 'ReadFile: src/main.ts',
        content: [{ type: 'content', content: { type: 'text', text: '1\tconst x = 1;\n\nRead 1 line.' } }],
      },
    ]);
  });

  it('shows diffs as diffs, failures as failed, and a todo list as the plan', () => {
    const t = new SessionUpdateTranslator(WORK);
    t.translate(
      streamedPartEvent({
        type: 'function',
        id: 'e1',
        function: { name: 'StrReplaceFile', arguments: '{}' },
      }),
    );
    const [edit] = t.translate(
      wireEvent('ToolResult', {
        tool_call_id: 'e1',
        return_value: {
          is_error: true,
          output: '',
          message: 'The file changed meanwhile.',
          display: [
            {
              type: 'diff',
              path: `${WORK}/a.ts`,
              old_text: 'a',
              new_text: 'b',
              old_start: 1,
              new_start: 1,
              is_summary: false,
            },
          ],
        },
      }),
    );
    expect(edit).toMatchObject({
      status: 'failed',
      content: [
        { type: 'diff', path: `${WORK}/a.ts`, oldText: 'a', newText: 'b' },
        { type: 'content', content: { type: 'text', text: 'The file changed meanwhile.' } },
      ],
    });
    const todo = t.translate(
      wireEvent('ToolResult', {
        tool_call_id: 't1',
        return_value: {
          is_error: false,
          output: '',
          message: '',
          display: [
            {
              type: 'todo',
              items: [
                { title: 'Write tests', status: 'done' },
                { title: 'Fix the bug', status: 'in_progress' },
              ],
            },
          ],
        },
      }),
    );
    expect(todo[1]).toEqual({
      sessionUpdate: 'plan',
      entries: [
        { content: 'Write tests', priority: 'medium', status: 'completed' },
        { content: 'Fix the bug', priority: 'medium', status: 'in_progress' },
      ],
    });
  });

  it('leaves a terminal in place of the output (acp/hide_output), except when replaying', () => {
    const result = wireEvent('ToolResult', {
      tool_call_id: 's1',
      return_value: {
        is_error: false,
        output: 'hello\n',
        message: 'Command executed successfully.',
        display: [{ type: 'acp/hide_output' }],
      },
    });
    const live = new SessionUpdateTranslator(WORK).translate(result);
    expect(live).toEqual([{ sessionUpdate: 'tool_call_update', toolCallId: 's1', status: 'completed' }]);
    const [replayed] = new SessionUpdateTranslator(WORK, { echoUserInput: true }).translate(result);
    expect(replayed).toMatchObject({
      status: 'completed',
      content: [
        { type: 'content', content: { type: 'text', text: 'hello\n\n\nCommand executed successfully.' } },
      ],
    });
  });

  it('shows a silent model as a passing thought, and no other notification', () => {
    const t = new SessionUpdateTranslator(WORK);
    const notification = (type: string, title: string) =>
      wireEvent('Notification', {
        id: 'n',
        category: 'system',
        type,
        source_kind: 'soul',
        source_id: 'model',
        title,
        body: '',
        severity: 'info',
        created_at: 0,
        payload: {},
      });
    expect(t.translate(notification('model.waiting', 'waiting for the model: 15 s…'))).toEqual([
      {
        sessionUpdate: 'agent_thought_chunk',
        content: { type: 'text', text: '(waiting for the model: 15 s…)\n' },
      },
    ]);
    expect(t.translate(notification('task.completed', 'done'))).toEqual([]);
  });

  it("echoes the user's input only when replaying", () => {
    const begin = wireEvent('TurnBegin', { user_input: [{ type: 'text', text: 'earlier question' }] });
    expect(new SessionUpdateTranslator(WORK).translate(begin)).toEqual([]);
    expect(new SessionUpdateTranslator(WORK, { echoUserInput: true }).translate(begin)).toEqual([
      { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'earlier question' } },
    ]);
  });
});

describe('ACP input', () => {
  it('turns prompt blocks into user input', () => {
    expect(
      promptToUserInput([
        { type: 'text', text: 'Look at this' },
        { type: 'image', mimeType: 'image/png', data: 'iVBOR' },
        { type: 'resource_link', uri: 'file:///p/a.ts', name: 'a.ts' },
        { type: 'resource', resource: { uri: 'file:///p/b.ts', text: 'export const b = 1;' } },
      ]),
    ).toEqual([
      { type: 'text', text: 'Look at this' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBOR' } },
      { type: 'text', text: '[a.ts](file:///p/a.ts)' },
      { type: 'text', text: '<resource uri="file:///p/b.ts">\nexport const b = 1;\n</resource>' },
    ]);
  });

  it("turns the client's MCP servers into an mcpServers config", () => {
    expect(mcpServersConfig([])).toBeNull();
    expect(
      JSON.parse(
        mcpServersConfig([
          { name: 'fs', command: 'npx', args: ['server-fs'], env: [{ name: 'ROOT', value: '/p' }] },
          {
            type: 'http',
            name: 'docs',
            url: 'https://docs.example/mcp',
            headers: [{ name: 'X-Key', value: 'k' }],
          },
          { type: 'sse', name: 'old', url: 'https://old.example/sse', headers: [] },
        ]) ?? '',
      ),
    ).toEqual({
      mcpServers: {
        fs: { command: 'npx', args: ['server-fs'], env: { ROOT: '/p' } },
        docs: { url: 'https://docs.example/mcp', headers: { 'X-Key': 'k' }, transport: 'http' },
        old: { url: 'https://old.example/sse', headers: {}, transport: 'sse' },
      },
    });
  });
});
