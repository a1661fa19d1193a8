import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { DispatchedSwarm } from './swarm-dispatch.js';
import { SWARM_ITEM_NOBODY_TO_ASK } from './swarm-item-here.js';
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

const item = (prompt: string, signal = new AbortController().signal) => ({
  swarmId: 's0123abcd',
  index: 1,
  branchOwner: 's0123abcd',
  description: 'Parts #1',
  subagentType: 'coder',
  model: null,
  prompt,
  isolation: 'none' as const,
  parentToolCallId: 'root-1',
  signal,
});

it('a dispatched swarm runs nothing here: the report is made of the ends it answers, in the local shape', async () => {
  fixture = await ScriptedSession.open({
    yolo: true,
    scripts: [
      callTool('root-1', 'AgentSwarm', {
        description: 'Parts',
        prompt_template: 'Do {{item}}.',
        items: ['a', 'b'],
      }),
      say('Both came back.'),
    ],
  });
  const sent: DispatchedSwarm[] = [];
  fixture.session.setSwarmDispatch(async (swarm) => {
    sent.push(swarm);
    return {
      swarmId: 's0000beef',
      items: [
        {
          outcome: {
            agentId: 'a1',
            status: 'completed',
            answer: 'done with a',
            result: { isError: false, output: 'done with a', message: '', brief: '' },
            isolated: false,
            branch: null,
            diffStat: '',
            worktreeError: null,
          },
          notStarted: null,
        },
        { outcome: null, notStarted: 'The session was cancelled before this item ran.' },
      ],
    };
  });
  const { seen } = await fixture.runTurn('go');
  expect(sent.map((s) => [s.items.map((i) => i.prompt), s.parentToolCallId, s.concurrency])).toEqual([
    [['Do a.', 'Do b.'], 'root-1', 4],
  ]);
  const result = toolResultOf(seen, 'root-1');
  expect(result.output).toContain('<agent_swarm_result swarm_id="s0000beef" max_concurrency="4">');
  expect(result.output).toContain('<summary>completed: 1, not_started: 1</summary>');
  expect(result.output).toContain('done with a');
  expect(result.output).toContain('<error>The session was cancelled before this item ran.</error>');
  expect(await fixture.subagentIds()).toEqual([]);
});

it('an item run here: as a local item; not started once the goal’s budget is spent', async () => {
  fixture = await ScriptedSession.open({ yolo: true, scripts: [say(longReport('the item'))] });
  const ran = await fixture.session.runSwarmItem(item('Do the item.'));
  expect('notStarted' in ran).toBe(false);
  if ('notStarted' in ran) return;
  expect(ran.status).toBe('completed');
  expect(ran.answer).toContain('the item');
  const goal = fixture.session.parts.goal!;
  goal.create({ objective: 'finish', budget: { maxTokens: 1 } });
  goal.addTokens(10);
  const spent = goal.budgetReached(true);
  expect(spent).not.toBeNull();
  expect(await fixture.session.runSwarmItem(item('Do more.'))).toEqual({
    notStarted: `Not started: the goal's budget is spent (${spent})`,
  });
  // Nothing was started for it.
  expect(await fixture.subagentIds()).toHaveLength(1);
  await goal.flush();
});

it('an item run here with nobody to ask: an approval is refused with the reason, never left waiting', async () => {
  fixture = await ScriptedSession.open({
    scripts: [callTool('w-1', 'WriteFile', { path: 'x.txt', content: 'x\n' }), say(longReport('refused'))],
  });
  const ran = await fixture.session.runSwarmItem(item('Write x.'));
  if ('notStarted' in ran) throw new Error('not started');
  expect(ran.status).toBe('completed');
  const context = await fixture.jsonLines(ran.agentId!, 'context.jsonl');
  const toolResult = JSON.stringify(context.filter((line) => line.role === 'tool'));
  expect(toolResult).toContain(SWARM_ITEM_NOBODY_TO_ASK.slice(0, 60));
  await expect(readFile(join(fixture.workDir, 'x.txt'))).rejects.toThrow();
});
