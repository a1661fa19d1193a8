import { describe, expect, it } from 'vitest';
import { message } from '../../kosong/message.js';
import { Wire } from '../../wire/wire.js';
import type { UserInput } from '../steer-queue.js';
import type { TurnOutcome } from '../turn-outcome.js';
import { parseD2Flow } from './d2.js';
import { buildFlow, type Flow, FlowError } from './flow.js';
import { parseMermaidFlow } from './mermaid.js';
import { decisionPrompt, runFlow } from './run-flow.js';

const RELEASE = `flowchart TD
  %% a release, with a loop back when the tests fail
  A([BEGIN]) --> B[Run the tests]
  B --> C{Did they pass?}
  C -->|yes| D["Publish [the] package"]
  C -- no --> E[Fix them]
  E-->B
  D --> F([END])
  classDef important fill:#f00
  style B stroke:#333`;

function summary(flow: Flow) {
  return {
    nodes: [...flow.nodes.values()].map((n) => `${n.id}:${n.kind}:${String(n.label)}`),
    edges: [...flow.outgoing.values()].flat().map((e) => `${e.from}->${e.to}${e.label ? `|${e.label}` : ''}`),
  };
}

/** A small seeded generator, so the fuzz inputs are the same on every run. */
function* seededStrings(seed: number, count: number): Generator<string> {
  const alphabet = 'AB C{}[]()|-->=.:"\'#%\n\tBEGINENDxy_/;\\';
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state;
  };
  for (let i = 0; i < count; i++) {
    let text = '';
    for (let n = next() % 40; n > 0; n--) text += alphabet[next() % alphabet.length];
    yield text;
  }
}

describe('flowcharts', () => {
  it('meet any text with a flow or a FlowError, never anything else', () => {
    for (const text of seededStrings(7, 5000)) {
      for (const parse of [parseMermaidFlow, parseD2Flow]) {
        try {
          buildFlow(parse(text));
        } catch (error) {
          expect(error).toBeInstanceOf(FlowError);
        }
      }
    }
  });

  it('reads the Mermaid subset: shapes, quoted text, labelled and chained edges, comments and styling skipped', () => {
    const flow = buildFlow(parseMermaidFlow(RELEASE));
    expect(summary(flow)).toEqual({
      nodes: [
        'A:begin:BEGIN',
        'B:task:Run the tests',
        'C:decision:Did they pass?',
        'D:task:Publish [the] package',
        'E:task:Fix them',
        'F:end:END',
      ],
      edges: ['A->B', 'B->C', 'C->D|yes', 'C->E|no', 'E->B', 'D->F'],
    });
  });

  it('reads the D2 subset: labels, chains labelled on their last edge, blocks and properties skipped', () => {
    const flow = buildFlow(
      parseD2Flow(`# release
begin: BEGIN
tests: Run the tests
check: "Did they pass?" {
  shape: diamond
}
check.style.fill: red
publish.label: Publish
end: END
begin -> tests -> check
check -> publish: yes
check -> tests: no
publish -> end`),
    );
    expect(summary(flow)).toEqual({
      nodes: [
        'begin:begin:BEGIN',
        'tests:task:Run the tests',
        'check:decision:Did they pass?',
        'publish:task:Publish',
        'end:end:END',
      ],
      edges: ['begin->tests', 'tests->check', 'check->publish|yes', 'check->tests|no', 'publish->end'],
    });
  });

  it('refuses what makes no flow, saying why', () => {
    const bad = (source: string) => () => buildFlow(parseMermaidFlow(source));
    expect(bad('graph TD\nA[BEGIN] --> B[task]')).toThrow('exactly one END');
    expect(bad('graph TD\nA[BEGIN] --> B[END]\nC[begin] --> B')).toThrow('exactly one BEGIN');
    expect(bad('graph TD\nA[BEGIN] --> C{x}\nC --> D[END]\nC --> E[y]')).toThrow('needs a label');
    expect(bad('graph TD\nA[BEGIN] --> C{x}\nC -->|a| D[END]\nC -->|a| E[y]')).toThrow('different labels');
    expect(bad('graph TD\nA[BEGIN] --> B[task]\nC[END]')).toThrow('cannot be reached');
    expect(bad('graph TD\nA[BEGIN] --> B[task\nB --> C[END]')).toThrow(FlowError);
    expect(bad('graph TD\nA[BEGIN] --> B[task\nB --> C[END]')).toThrow('Mermaid line 2');
  });
});

/** A turn runner answering with `answers` in order. */
function scripted(answers: string[]) {
  const prompts: UserInput[] = [];
  const runTurn = async (input: UserInput): Promise<TurnOutcome> => {
    prompts.push(input);
    const text = answers[prompts.length - 1] ?? 'out of answers';
    return { stopReason: 'no_tool_calls', finalMessage: message('assistant', text), stepCount: 1 };
  };
  return { prompts, runTurn };
}

const run = (flow: Flow, runTurn: (input: UserInput) => Promise<TurnOutcome>, maxMoves?: number) => {
  const wire = new Wire();
  return runFlow(flow, runTurn, (message) => wire.send(message), maxMoves);
};

describe('runFlow', () => {
  const flow = buildFlow(parseMermaidFlow(RELEASE));
  const edges = flow.outgoing.get('C')!;

  it('walks from BEGIN to END, taking the branch each decision chooses', async () => {
    const { prompts, runTurn } = scripted([
      'ran',
      'nope <choice>no</choice>',
      'fixed',
      'ran',
      '<choice>yes</choice> done',
      'published',
    ]);
    const result = await run(flow, runTurn);
    expect(result.end).toBe('end');
    expect(result.moves).toBe(6);
    expect(result.outcome?.stepCount).toBe(6);
    expect(prompts).toEqual([
      'Run the tests',
      decisionPrompt('Did they pass?', edges),
      'Fix them',
      'Run the tests',
      decisionPrompt('Did they pass?', edges),
      'Publish [the] package',
    ]);
    expect(decisionPrompt('Did they pass?', edges)).toBe(
      'Did they pass?\n\nAvailable branches:\n- yes\n- no\n\nReply with a choice using <choice>...</choice>.',
    );
  });

  it('asks a decision again, with a reminder, when no branch was chosen; stops at the move cap', async () => {
    const { prompts, runTurn } = scripted([
      'ran',
      'I am not sure',
      '<choice>perhaps</choice>',
      '<choice>YES</choice>',
      'published',
    ]);
    expect((await run(flow, runTurn)).end).toBe('end');
    expect(prompts[2]).toBe(decisionPrompt('Did they pass?', edges, true));
    expect(prompts[3]).toBe(decisionPrompt('Did they pass?', edges, true));
    const endless = scripted(Array.from({ length: 50 }, () => 'no choice'));
    const capped = await run(flow, endless.runTurn, 10);
    expect(capped.end).toBe('max_moves');
    expect(endless.prompts).toHaveLength(10);
  });
});
