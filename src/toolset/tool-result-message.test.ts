import { describe, expect, it } from 'vitest';
import { toolError, toolOk } from '../kosong/index.js';
import { toolRuntimeError } from './tool-errors.js';
import { toolResultToMessage } from './tool-result-message.js';

const message = (return_value: Parameters<typeof toolResultToMessage>[0]['return_value']) =>
  toolResultToMessage({ tool_call_id: 'c1', return_value });

describe('toolResultToMessage', () => {
  it('wraps the message in <system> and follows with the output', () => {
    expect(message(toolOk('file list', 'Command executed successfully.'))).toEqual({
      role: 'tool',
      tool_call_id: 'c1',
      content: [
        { type: 'text', text: '<system>Command executed successfully.</system>' },
        { type: 'text', text: 'file list' },
      ],
    });
  });

  it('says when a tool returned nothing, or nothing textual', () => {
    expect(message(toolOk('')).content).toEqual([
      { type: 'text', text: '<system>Tool output is empty.</system>' },
    ]);
    const image = { type: 'image_url' as const, image_url: { url: 'data:image/png;base64,AA==' } };
    expect(message(toolOk([image])).content).toEqual([
      { type: 'text', text: '<system>Tool returned non-text content.</system>' },
      image,
    ]);
  });

  it('marks errors, and adds a hint for unexpected runtime errors', () => {
    expect(message(toolError('Command failed with exit code: 2.', 'Failed', 'stderr text')).content).toEqual([
      { type: 'text', text: '<system>ERROR: Command failed with exit code: 2.</system>' },
      { type: 'text', text: 'stderr text' },
    ]);
    const [first] = message(toolRuntimeError(new Error('boom'))).content;
    expect(first).toEqual({
      type: 'text',
      text: '<system>ERROR: Error running tool: boom\nThis failure was not expected; the tool is probably broken.</system>',
    });
  });
});
