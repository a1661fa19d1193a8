import { afterEach, describe, expect, it } from 'vitest';
import {
  callTool,
  longReport,
  ScriptedSession,
  say,
  toolResultOf,
} from './test-support/scripted-root-session.js';

let fixture: ScriptedSession | null = null;

afterEach(async () => {
  await fixture?.close();
  fixture = null;
});

/** A step that ends with text and reports `output` tokens used. */
const reportUsing = (topic: string, output: number) => `${say(longReport(topic))}\nusage: output=${output}`;

describe('AgentSwarm through a real session', () => {
  it('aggregates the items one report, in item order, with agent ids and answers', async () => {
    fixture = await ScriptedSession.open({
      yolo: true,
      scripts: [
        callTool('root-1', 'AgentSwarm', {
          description: 'Look',
          prompt_template: 'Look at {{item}}.',
          items: ['one', 'two'],
          max_concurrency: 1,
        }),
        say(longReport('one')),
        say(longReport('two')),
        say('Both reported.'),
      ],
    });
    const { seen } = await fixture.runTurn('go');
    const result = toolResultOf(seen, 'root-1');
    expect(result.is_error).toBe(false);
    expect(result.output).toContain('<summary>completed: 2</summary>');
    expect(result.output).toMatch(/max_concurrency="1"/);
    const ids = await fixture.subagentIds();
    expect(ids).toHaveLength(2);
    const order = [
      ...result.output.matchAll(/<subagent index="(\d)" agent_id="(a[0-9a-f]{8})" item="(\w+)"/g),
    ].map((m) => [m[1], m[3]]);
    expect(order).toEqual([
      ['1', 'one'],
      ['2', 'two'],
    ]);
    expect(result.output).toContain('Report on one');
    expect(result.output).toContain('Report on two');
    expect((await fixture.meta(ids[0]!)).description).toMatch(/^Look #[12]$/);
  });

  it("caps the model's max_concurrency by the config's [subagents] max_concurrency", async () => {
    fixture = await ScriptedSession.open({
      yolo: true,
      config: { subagents: { max_concurrency: 1 } },
      scripts: [
        callTool('root-1', 'AgentSwarm', {
          description: 'Look',
          prompt_template: 'Look at {{item}}.',
          items: ['one', 'two'],
          max_concurrency: 50,
        }),
        say(longReport('one')),
        say(longReport('two')),
        say('Done.'),
      ],
    });
    const { seen } = await fixture.runTurn('go');
    expect(toolResultOf(seen, 'root-1').output).toMatch(/max_concurrency="1"/);
  });

  it('refuses unknown resume ids before any subagent starts', async () => {
    fixture = await ScriptedSession.open({
      yolo: true,
      scripts: [
        callTool('root-1', 'AgentSwarm', { description: 'd', resume_agent_ids: { a0000dead: 'continue' } }),
        say('Understood.'),
      ],
    });
    const { seen } = await fixture.runTurn('go');
    const result = toolResultOf(seen, 'root-1');
    expect(result.is_error).toBe(true);
    expect(result.message).toBe('Unknown agent id in resume_agent_ids: a0000dead. No subagent was started.');
    expect(await fixture.subagentIds()).toEqual([]);
  });

  it("counts the subagents' tokens against the goal's budget and starts no item once it is spent", async () => {
    fixture = await ScriptedSession.open({
      yolo: true,
      scripts: [
        `${callTool('root-1', 'AgentSwarm', {
          description: 'Work',
          prompt_template: 'Work on {{item}}.',
          items: ['a', 'b', 'c'],
          max_concurrency: 1,
        })}\nusage: output=10`,
        reportUsing('a', 2000),
        say('Stopping.'),
      ],
    });
    const goal = fixture.session.parts.goal!;
    goal.create({ objective: 'finish the work', budget: { maxTokens: 1000 } });
    const { seen } = await fixture.runTurn('go');
    const result = toolResultOf(seen, 'root-1');
    expect(result.output).toContain('<summary>completed: 1, not_started: 2</summary>');
    expect(result.output).toContain(
      "Not started: the goal's budget is spent (Token budget reached: 2000 of 1000 tokens.)",
    );
    expect(await fixture.subagentIds()).toHaveLength(1);
    expect(goal.current()?.tokensUsed).toBeGreaterThanOrEqual(2010);
    expect(goal.current()?.status).toBe('blocked');
    await goal.flush();
  });
});
