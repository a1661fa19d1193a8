import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { wireSend } from '../../soul/run-soul.js';
import type { UserInput } from '../../soul/steer-queue.js';
import { streamedPartEvent, wireEvent } from '../../wire/events.js';
import { InputHistory } from '../common/input-history.js';
import { ScriptedSession } from '../common/test-support/scripted-turn-session.js';
import { runShell } from './run-shell.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-shell-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A session whose every turn thinks, answers with the prompt it got and reports half the context used. */
function echoingSession(): { session: ScriptedSession; prompts: UserInput[] } {
  const session = new ScriptedSession(dir, join(dir, 'wire.jsonl'));
  const prompts: UserInput[] = [];
  session.script = async (turn) => {
    prompts.push(turn.input);
    wireSend(wireEvent('TurnBegin', { user_input: turn.input }));
    wireSend(wireEvent('StepBegin', { n: 1 }));
    wireSend(streamedPartEvent({ type: 'think', think: 'pondering' }));
    wireSend(streamedPartEvent({ type: 'text', text: `You said: ${String(turn.input)}` }));
    wireSend(
      wireEvent('StatusUpdate', { context_usage: 0.5, context_tokens: 500, max_context_tokens: 1000 }),
    );
    wireSend(wireEvent('TurnEnd', {}));
  };
  return { session, prompts };
}

/** Runs the shell as on a terminal, typing `keys`, and returns everything it printed. */
async function runOnTerminal(session: ScriptedSession, history: InputHistory, keys: string): Promise<string> {
  const input = new PassThrough();
  const output = new PassThrough();
  let printed = '';
  output.setEncoding('utf8').on('data', (text: string) => {
    printed += text;
  });
  const done = runShell({ session, input, output, isTerminal: true, thinking: 'stream', history });
  input.write(keys);
  input.end();
  expect(await done).toBe(0);
  return printed;
}

describe('the shell on a terminal', () => {
  it('shows thinking and the context in use, keeps prompts for the up arrow, and replays a resumed session', async () => {
    const history = InputHistory.forWorkDir(dir, dir);
    await history.add('an earlier request');
    const { session, prompts } = echoingSession();

    // Up arrow + Enter: the earlier request from the history file, run again; then a new one.
    const printed = await runOnTerminal(session, history, '\x1b[A\rsecond request\r');
    expect(prompts).toEqual(['an earlier request', 'second request']);
    expect(printed).toContain('pondering\nYou said: second request\n');
    expect(printed).toContain('context 50% (500 of 1.0k tokens)');
    expect(await readFile(history.file, 'utf8')).toBe(
      '{"content":"an earlier request"}\n{"content":"second request"}\n',
    );

    // The same session opened again shows what was said.
    const again = await runOnTerminal(session, InputHistory.forWorkDir(dir, dir), '');
    expect(again).toContain('› an earlier request\npondering\nYou said: an earlier request\n');
    expect(again).toContain('› second request\n');
    expect(again).toContain('(resumed: 2 earlier turns above)');
  });
});

describe('steering from the shell', () => {
  it('Ctrl-S sends the typed text into the running turn', async () => {
    const session = new ScriptedSession(dir, join(dir, 'wire.jsonl'));
    session.script = async (turn) => {
      wireSend(wireEvent('TurnBegin', { user_input: turn.input }));
      wireSend(streamedPartEvent({ type: 'text', text: 'Working; steer me.\n' }));
      const steer = await turn.nextSteer();
      wireSend(streamedPartEvent({ type: 'text', text: `Steered with: ${String(steer)}` }));
      wireSend(wireEvent('TurnEnd', {}));
    };
    const input = new PassThrough();
    const output = new PassThrough();
    let printed = '';
    let seen: (() => void) | null = null;
    let awaited = '';
    output.setEncoding('utf8').on('data', (text: string) => {
      printed += text;
      if (seen && printed.includes(awaited)) seen();
    });
    const waitFor = (text: string) =>
      new Promise<void>((resolve) => {
        awaited = text;
        seen = resolve;
        if (printed.includes(text)) resolve();
      });
    const done = runShell({ session, input, output, isTerminal: true });
    input.write('start\r');
    await waitFor('Working; steer me.');
    input.write('use the other file\x13');
    await waitFor('Steered with: use the other file');
    input.end();
    expect(await done).toBe(0);
    expect(printed).toContain('(steering: use the other file)');
  });
});
