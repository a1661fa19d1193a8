import { describe, expect, it } from 'vitest';
import { parseScript } from './dsl.js';
import { ScriptError } from './scripted-turn.js';

describe('parseScript', () => {
  it('skips blank lines, comments, code fences and a bare echo', () => {
    const turn = parseScript(['```', 'echo', '', '# a comment', '  text: hi  ', '```'].join('\n'));
    expect(turn.parts).toEqual([{ type: 'text', text: 'hi' }]);
  });

  it('reads each text line as one chunk, strips one space after the colon and matching outer quotes', () => {
    const turn = parseScript(
      ['text: one', 'text:  two', 'TEXT: "  three  "', 'text: \'four"', 'text:five'].join('\n'),
    );
    expect(turn.parts).toEqual([
      { type: 'text', text: 'one' },
      { type: 'text', text: ' two' },
      { type: 'text', text: '  three  ' },
      { type: 'text', text: '\'four"' },
      { type: 'text', text: 'five' },
    ]);
  });

  it('reads id (quotes stripped) and usage in both forms', () => {
    expect(parseScript('id: "msg-1"\ntext: x').id).toBe('msg-1');
    expect(parseScript('usage: {"input_other": 18, "output": 3}\ntext: x').usage).toEqual({
      input_other: 18,
      output: 3,
      input_cache_read: 0,
      input_cache_creation: 0,
    });
    expect(
      parseScript('usage: input_other=5, output=2 input_cache_read=7 input_cache_creation=1\ntext: x').usage,
    ).toEqual({
      input_other: 5,
      output: 2,
      input_cache_read: 7,
      input_cache_creation: 1,
    });
  });

  it('reads think as plain text or as a signed JSON object', () => {
    const turn = parseScript(
      ['think: pondering', 'think: {"think": "sealed", "encrypted": "sig"}', 'think: {not json'].join('\n'),
    );
    expect(turn.parts).toEqual([
      { type: 'think', think: 'pondering' },
      { type: 'think', think: 'sealed', encrypted: 'sig' },
      { type: 'think', think: '{not json' },
    ]);
  });

  it('reads media parts as a URL or a {url, id} object', () => {
    const turn = parseScript(
      [
        'image_url: https://x/a.png',
        'audio_url: {"url": "https://x/a.mp3", "id": "a1"}',
        "video_url: 'https://x/v.mp4'",
      ].join('\n'),
    );
    expect(turn.parts).toEqual([
      { type: 'image_url', image_url: { url: 'https://x/a.png', id: null } },
      { type: 'audio_url', audio_url: { url: 'https://x/a.mp3', id: 'a1' } },
      { type: 'video_url', video_url: { url: 'https://x/v.mp4', id: null } },
    ]);
  });

  it('reads tool calls in JSON form, nested function form and key=value form', () => {
    const turn = parseScript(
      [
        'tool_call: {"id": "ReadFile:0", "name": "ReadFile", "arguments": "{\\"path\\": \\"a.js\\"}", "extras": {"k": 1}}',
        'tool_call: {"id": "c2", "function": {"name": "Shell", "arguments": null}}',
        'tool_call: id=c3, name=Glob arguments={"pattern":"*.ts","x":[1,2]}',
        'tool_call: id=c4 function.name=Think function.arguments="{\\"thought\\": \\"a b\\"}"',
        'tool_call: id=c5 name=Noop arguments=null',
      ].join('\n'),
    );
    expect(turn.parts).toEqual([
      {
        type: 'function',
        id: 'ReadFile:0',
        function: { name: 'ReadFile', arguments: '{"path": "a.js"}' },
        extras: { k: 1 },
      },
      { type: 'function', id: 'c2', function: { name: 'Shell', arguments: null } },
      { type: 'function', id: 'c3', function: { name: 'Glob', arguments: '{"pattern":"*.ts","x":[1,2]}' } },
      { type: 'function', id: 'c4', function: { name: 'Think', arguments: '{"thought": "a b"}' } },
      { type: 'function', id: 'c5', function: { name: 'Noop', arguments: null } },
    ]);
  });

  it('reads tool call parts: raw fragments, JSON strings, wrapped values and empty ones', () => {
    const turn = parseScript(
      [
        'tool_call: {"id": "c1", "name": "ReadFile"}',
        'tool_call_part: {"path": "sr',
        'tool_call_part: "c/a.ts\\"}"',
        'tool_call_part: {"arguments_part": {"a": [1]}}',
        'tool_call_part: {"arguments_part": "x"}',
        'tool_call_part: {"whole": 1}',
        'tool_call_part: null',
        'tool_call_part:',
      ].join('\n'),
    );
    expect(turn.parts.slice(1)).toEqual([
      { type: 'tool_call_part', arguments_part: '{"path": "sr' },
      { type: 'tool_call_part', arguments_part: 'c/a.ts"}' },
      { type: 'tool_call_part', arguments_part: '{"a":[1]}' },
      { type: 'tool_call_part', arguments_part: 'x' },
      { type: 'tool_call_part', arguments_part: '{"whole": 1}' },
      { type: 'tool_call_part', arguments_part: null },
      { type: 'tool_call_part', arguments_part: null },
    ]);
  });

  it.each([
    [
      'error: 429',
      {
        kind: 'status',
        statusCode: 429,
        message: 'Scripted HTTP 429 error.',
        requestId: null,
        retryAfterMs: null,
      },
    ],
    [
      'error: 500 upstream broke',
      { kind: 'status', statusCode: 500, message: 'upstream broke', requestId: null, retryAfterMs: null },
    ],
    ['error: connection', { kind: 'connection', message: 'Scripted connection failure.' }],
    ['error: Connection reset by peer', { kind: 'connection', message: 'reset by peer' }],
    ['error: timeout too slow', { kind: 'timeout', message: 'too slow' }],
    [
      'error: {"status": 429, "message": "slow down", "retry_after_ms": 1500, "request_id": "r1"}',
      { kind: 'status', statusCode: 429, message: 'slow down', requestId: 'r1', retryAfterMs: 1500 },
    ],
    ['error: {"status": "timeout"}', { kind: 'timeout', message: 'Scripted request timeout.' }],
  ])('reads %s as the only line', (line, failure) => {
    const turn = parseScript(line);
    expect(turn.parts).toEqual([]);
    expect(turn.failure).toEqual(failure);
  });

  it('keeps the parts before an error directive', () => {
    const turn = parseScript('text: partial\n\nerror: connection\n# trailing comment');
    expect(turn.parts).toEqual([{ type: 'text', text: 'partial' }]);
    expect(turn.failure?.kind).toBe('connection');
  });

  it.each([
    ['text: a\njust words', 2, "expected 'kind: payload'"],
    ['text: a\n\nsay: hi', 3, "unknown directive 'say'"],
    ['id:', 1, 'id needs a value'],
    ['usage: output=x', 1, 'bad usage: output'],
    ['usage: output=1.5', 1, 'bad usage: output'],
    ['usage: {"output": -1}', 1, 'bad usage: output'],
    ['usage: {"outputs": 1}', 1, 'bad usage'],
    ['usage: output', 1, "expected key=value in usage, got 'output'"],
    ['usage: [1]', 1, 'expected key=value'],
    ['usage: {"output": 1', 1, 'usage payload is not valid JSON'],
    ['usage:', 1, 'usage needs a JSON object or key=value pairs'],
    ['image_url:', 1, 'image_url needs a URL'],
    ['video_url: {"id": "v"}', 1, 'bad video_url: url'],
    ['tool_call: {"name": "ReadFile"}', 1, 'bad tool_call: id'],
    ['tool_call: id=c1', 1, 'tool_call needs a name'],
    ['tool_call: {"id": "c1", "name": "X", "arguments": {"a": 1}}', 1, 'bad tool_call: arguments'],
    ['tool_call: {"id": "c1", "name": "X", "extras": [1]}', 1, 'bad tool_call: extras'],
    ['tool_call: id=c1 name="X', 1, 'unterminated " quote'],
    ['think: {"think": 1}', 1, 'bad think: think'],
    ['error: 200', 1, 'error needs an HTTP status 400-599'],
    ['error: boom', 1, 'error needs an HTTP status 400-599'],
    ['error:', 1, 'error needs an HTTP status 400-599'],
    ['error: {"status": 99}', 1, 'bad error: status'],
    ['text: a\nerror: 500\ntext: b', 3, 'the error directive of line 2 must be the last directive'],
  ])('rejects %j at line %i', (script, line, detail) => {
    let caught: unknown;
    try {
      parseScript(script);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ScriptError);
    const error = caught as ScriptError;
    expect(error.line).toBe(line);
    expect(error.message).toContain(`Invalid script at line ${line}: `);
    expect(error.message).toContain(detail);
  });

  it('rejects a script that streams nothing', () => {
    expect(() => parseScript('# only\nid: x\nusage: output=1')).toThrow(
      /^Invalid script: it produces no streamable parts/,
    );
    expect(() => parseScript('')).toThrow(ScriptError);
  });

  it('accepts CRLF line endings', () => {
    expect(parseScript('text: a\r\ntext: b\r\n').parts).toEqual([
      { type: 'text', text: 'a' },
      { type: 'text', text: 'b' },
    ]);
  });
});
