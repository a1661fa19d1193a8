import { describe, expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';
import type { ScriptedTurn } from '../support/scripted-llm-server.js';

const cli = useScriptedCli();

interface OutMessage {
  role: string;
  content?: unknown;
  tool_calls?: { id: string }[];
  tool_call_id?: string;
}

const jsonLines = (stdout: string): OutMessage[] =>
  stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as OutMessage);

/** One line per message: `assistant[c0,c1]` or `tool c0`. */
const shape = (messages: OutMessage[]): string[] =>
  messages.map((m) =>
    m.role === 'tool'
      ? `tool ${m.tool_call_id}`
      : `${m.role}${m.tool_calls ? `[${m.tool_calls.map((c) => c.id).join(',')}]` : ''}`,
  );

/** A step whose first attempt is cut after its text and call, and whose second goes through. */
const retriedStep: ScriptedTurn[] = [
  {
    text: 'appending',
    toolCalls: [{ id: 'from-cut-attempt', name: 'Shell', args: { command: 'echo one >> log.txt' } }],
    cutAfterToolCalls: true,
  },
  {
    text: 'appending',
    toolCalls: [{ id: 'from-good-attempt', name: 'Shell', args: { command: 'echo one >> log.txt' } }],
  },
  { text: 'Appended.' },
];

describe('print mode after a retry', () => {
  it('text: writes the text and the tool line of the attempt that succeeded, once', async () => {
    const { sandbox } = await cli.setup(retriedStep);
    const result = await sandbox.run(['--print', '-p', 'append a line']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('appending\nAppended.\n');
    expect(result.stderr.match(/• Shell/g)).toHaveLength(1);
    expect(result.stderr).toMatch(/retrying after APIConnectionError: attempt 2 of 3/);
    const { readFile } = await import('node:fs/promises');
    expect(await readFile(`${sandbox.workDir}/log.txt`, 'utf8')).toBe('one\n');
  });

  it('text: a stream cut after its text is not printed twice', async () => {
    const { sandbox } = await cli.setup([
      { text: 'partial answer', cut: 'after-text' },
      { text: 'partial answer, whole.' },
    ]);
    const result = await sandbox.run(['--print', '-p', 'say it']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('partial answer, whole.\n');
  });

  it('stream-json: no call of the failed attempt, every call followed by its tool message', async () => {
    const { sandbox } = await cli.setup(retriedStep);
    const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'append a line']);
    expect(result.code).toBe(0);
    expect(shape(jsonLines(result.stdout))).toEqual([
      'assistant[from-good-attempt]',
      'tool from-good-attempt',
      'assistant',
    ]);
  });
});

describe('stream-json order', () => {
  it('writes one assistant message with all the calls of a step, then its tool messages in call order', async () => {
    const { sandbox } = await cli.setup([
      {
        toolCalls: [
          { id: 'c0', name: 'Glob', rawArgs: '{"pattern": "*.txt"' },
          { id: 'c1', name: 'NoSuchTool', args: {} },
          { id: 'c2', name: 'Glob', args: { pattern: '*.md' } },
        ],
      },
      { text: 'Looked.' },
    ]);
    const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'look around']);
    expect(result.code).toBe(0);
    const messages = jsonLines(result.stdout);
    expect(shape(messages)).toEqual(['assistant[c0,c1,c2]', 'tool c0', 'tool c1', 'tool c2', 'assistant']);
    expect(JSON.stringify(messages[2]?.content)).toContain('NoSuchTool');
  });
});
