import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { gate } from '../../../test/support/loopback-server.js';
import { type ContentPart, toolOk } from '../../kosong/index.js';
import { KimiToolset } from '../kimi-toolset.js';
import { dispatchAll, resultText, toolCall } from '../test-support/dispatch.js';
import { testPolicy } from '../test-support/test-policy.js';
import { defineTool } from '../tool-definition.js';
import { DEFAULT_REPEAT_POLICY, ORIGINAL_REPEAT_POLICY, type RepeatPolicy } from './repeat-detector.js';
import type { StepCall } from './repeat-tracker.js';

/** A read-only tool whose result is what `answer` says for the given arguments. */
function toolsetWith(
  policy: RepeatPolicy,
  answer: (args: { q: string }) => string = ({ q }) => `result of ${q}`,
) {
  const toolset = new KimiToolset({ policy: testPolicy({ workDir: process.cwd() }), repeatPolicy: policy });
  for (const name of ['Look', 'Poke']) {
    toolset.add(
      defineTool({
        name,
        description: '',
        params: z.object({ q: z.string() }),
        effect: 'read-only',
        call: (args) => toolOk(answer(args)),
      }),
    );
  }
  return toolset;
}

/** Drives a turn: one step per entry, each entry the calls `[tool, q]` of that step. Returns each step's results' text and the force-stop flag. */
async function runTurn(toolset: KimiToolset, steps: [string, string][][]) {
  let previous: StepCall[] = [];
  let id = 0;
  const out: { texts: string[]; forceStop: boolean }[] = [];
  for (const calls of steps) {
    toolset.beginStep(previous);
    const results = await dispatchAll(
      toolset,
      calls.map(([name, q]) => toolCall(String(++id), name, { q })),
    );
    out.push({ texts: results.map(resultText), forceStop: toolset.forceStopTurn });
    previous = toolset.endStep();
  }
  return out;
}

function tierOf(text: string): string | null {
  if (!text.includes('<system-reminder>')) return null;
  if (text.includes('going round in circles')) return 'r3';
  if (text.includes('repeated_times')) return 'r2';
  return 'r1';
}

describe('cross-step repeats, original policy (Kimi CLI tiers)', () => {
  it('escalates r1 at 3, r2 at 5, r3 at 8 and force-stops at 12 consecutive identical calls', async () => {
    const toolset = toolsetWith(ORIGINAL_REPEAT_POLICY);
    const steps = await runTurn(
      toolset,
      Array.from({ length: 13 }, () => [['Look', 'x']] as [string, string][]),
    );
    const table = steps.map((s, i) => [i + 1, tierOf(s.texts[0]!), s.forceStop]);
    expect(table).toEqual([
      [1, null, false],
      [2, null, false],
      [3, 'r1', false],
      [4, 'r1', false],
      [5, 'r2', false],
      [6, 'r2', false],
      [7, 'r2', false],
      [8, 'r3', false],
      [9, 'r3', false],
      [10, 'r3', false],
      [11, 'r3', false],
      [12, 'r3', true],
      [13, 'r3', true],
    ]);
  });

  it('r2 names the tool, the repeat count and the canonical arguments; the stop result is not an error', async () => {
    const toolset = toolsetWith(ORIGINAL_REPEAT_POLICY);
    const steps = await runTurn(
      toolset,
      Array.from({ length: 5 }, () => [['Look', 'x']] as [string, string][]),
    );
    expect(steps[4]!.texts[0]).toContain('- tool: Look\n- repeated_times: 5\n- arguments: {"q":"x"}');
    expect(steps[4]!.texts[0]).toMatch(/result of x\n\n<system-reminder>\n[\s\S]*\n<\/system-reminder>$/);
  });

  it('counts identical calls within a step individually, but only reminds for calls seen in an earlier step', async () => {
    const toolset = toolsetWith(ORIGINAL_REPEAT_POLICY);
    const steps = await runTurn(toolset, [
      [
        ['Look', 'x'],
        ['Look', 'x'],
        ['Look', 'x'],
      ],
      [
        ['Look', 'x'],
        ['Look', 'x'],
      ],
    ]);
    expect(steps[0]!.texts.map(tierOf)).toEqual([null, null, null]);
    expect(steps[1]!.texts.map(tierOf)).toEqual(['r1', 'r2']);
  });

  it('resets the streak on a different call and forgets everything on a new turn', async () => {
    const toolset = toolsetWith(ORIGINAL_REPEAT_POLICY);
    const x: [string, string][] = [['Look', 'x']];
    const steps = await runTurn(toolset, [x, x, x, [['Look', 'y']], x, x]);
    expect(steps.map((s) => tierOf(s.texts[0]!))).toEqual([null, null, 'r1', null, null, null]);
    const fresh = await runTurn(toolset, [x, x]);
    expect(fresh.map((s) => tierOf(s.texts[0]!))).toEqual([null, null]);
  });

  it('does not see A,B,A,B… as a loop (the limit kimi-ts improves on)', async () => {
    const toolset = toolsetWith(ORIGINAL_REPEAT_POLICY);
    const steps = await runTurn(
      toolset,
      Array.from({ length: 24 }, (_, i) => [[i % 2 ? 'Poke' : 'Look', 'x']] as [string, string][]),
    );
    expect(steps.every((s) => tierOf(s.texts[0]!) === null && !s.forceStop)).toBe(true);
  });
});

describe('cross-step repeats, kimi-ts improvements', () => {
  it('1. counts a cycle A,B,A,B… as a loop and force-stops it at 12 repetitions', async () => {
    const toolset = toolsetWith(DEFAULT_REPEAT_POLICY);
    const steps = await runTurn(
      toolset,
      Array.from({ length: 24 }, (_, i) => [[i % 2 ? 'Poke' : 'Look', 'x']] as [string, string][]),
    );
    const tiers = steps.map((s) => tierOf(s.texts[0]!));
    // Call 2k is the k-th repetition of the (Look, Poke) cycle.
    expect(tiers[4]).toBe(null);
    expect(tiers[5]).toBe('r1');
    expect(tiers[9]).toBe('r2');
    expect(tiers[15]).toBe('r3');
    expect(steps[22]!.forceStop).toBe(false);
    expect(steps[23]!.forceStop).toBe(true);
    expect(steps[9]!.texts[0]).toContain('repeating cycle Look → Poke');
  });

  it('1. also catches a cycle of three calls inside one step repeated across steps', async () => {
    const toolset = toolsetWith(DEFAULT_REPEAT_POLICY);
    const cycle: [string, string][] = [
      ['Look', 'a'],
      ['Poke', 'b'],
      ['Look', 'c'],
    ];
    const steps = await runTurn(toolset, [cycle, cycle, cycle, cycle]);
    // The third repetition is complete at the third call of step 3.
    expect(steps[2]!.texts.map(tierOf)).toEqual([null, null, 'r1']);
    expect(steps[3]!.texts.map(tierOf)).toEqual(['r1', 'r1', 'r1']);
  });

  it('2. treats a re-spaced command as the same call', async () => {
    const spaced = ['ls  -la', ' ls -la', 'ls\t-la '];
    const improved = await runTurn(
      toolsetWith(DEFAULT_REPEAT_POLICY, () => 'same listing'),
      spaced.map((q) => [['Look', q]]),
    );
    expect(improved.map((s) => tierOf(s.texts[0]!))).toEqual([null, null, 'r1']);
    const original = await runTurn(
      toolsetWith(ORIGINAL_REPEAT_POLICY, () => 'same listing'),
      spaced.map((q) => [['Look', q]]),
    );
    expect(original.map((s) => tierOf(s.texts[0]!))).toEqual([null, null, null]);
  });

  it('3. a poll whose result changes is progress, not a loop; an unchanged result is', async () => {
    let progress = 0;
    const polling = await runTurn(
      toolsetWith(DEFAULT_REPEAT_POLICY, () => `${++progress}% done`),
      Array.from({ length: 14 }, () => [['Look', 'status']] as [string, string][]),
    );
    expect(polling.every((s) => tierOf(s.texts[0]!) === null && !s.forceStop)).toBe(true);

    const stuck = await runTurn(
      toolsetWith(DEFAULT_REPEAT_POLICY, () => '40% done'),
      Array.from({ length: 12 }, () => [['Look', 'status']] as [string, string][]),
    );
    expect(tierOf(stuck[2]!.texts[0]!)).toBe('r1');
    expect(stuck[11]!.forceStop).toBe(true);
  });

  it('judges a step in call order even when a later call finishes first', async () => {
    const slowGate = gate();
    const toolset = new KimiToolset({
      policy: testPolicy({ workDir: process.cwd() }),
      repeatPolicy: ORIGINAL_REPEAT_POLICY,
    });
    toolset.add(
      defineTool({
        name: 'Wait',
        description: '',
        params: z.object({ q: z.string() }),
        effect: 'read-only',
        call: async ({ q }) => {
          if (q === 'slow') await slowGate.promise;
          return toolOk(q);
        },
      }),
    );
    toolset.beginStep();
    await dispatchAll(toolset, [toolCall('0', 'Wait', { q: 'fast' })]);
    let previous = toolset.endStep();
    toolset.beginStep(previous);
    await dispatchAll(toolset, [toolCall('1', 'Wait', { q: 'fast' })]);
    previous = toolset.endStep();
    toolset.beginStep(previous);
    // Sequence so far: fast, fast. This step: slow, fast → the fast call ends a run of 1, not 3.
    const slow = Promise.resolve(
      toolset.handle(toolCall('2', 'Wait', { q: 'slow' }), {
        signal: new AbortController().signal,
        streamOutcome: Promise.resolve(true),
      }),
    );
    const fast = Promise.resolve(
      toolset.handle(toolCall('3', 'Wait', { q: 'fast' }), {
        signal: new AbortController().signal,
        streamOutcome: Promise.resolve(true),
      }),
    );
    let fastDone = false;
    void fast.then(() => {
      fastDone = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(fastDone).toBe(false);
    slowGate.open();
    const [, fastResult] = await Promise.all([slow, fast]);
    expect(tierOf(resultText(fastResult))).toBe(null);
  });

  it('appends the reminder to the last text part of a list output', async () => {
    const toolset = new KimiToolset({
      policy: testPolicy({ workDir: process.cwd() }),
      repeatPolicy: ORIGINAL_REPEAT_POLICY,
    });
    const parts: ContentPart[] = [
      { type: 'text', text: 'caption' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,AA==' } },
    ];
    toolset.add(
      defineTool({
        name: 'Img',
        description: '',
        params: z.object({}),
        effect: 'read-only',
        call: () => toolOk(parts),
      }),
    );
    let previous: StepCall[] = [];
    let output: unknown;
    for (let i = 0; i < 3; i++) {
      toolset.beginStep(previous);
      const [result] = await dispatchAll(toolset, [toolCall(String(i), 'Img', {})]);
      output = result!.return_value.output;
      previous = toolset.endStep();
    }
    expect(output).toEqual([
      { type: 'text', text: expect.stringMatching(/^caption\n\n<system-reminder>\n/) },
      parts[1],
    ]);
    expect(parts[0]).toEqual({ type: 'text', text: 'caption' });
  });
});
