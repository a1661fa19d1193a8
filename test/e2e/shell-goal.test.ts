import { describe, expect, it } from 'vitest';
import { liveCli } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';

const cli = useScriptedCli();

describe('line shell: the goal', () => {
  it('says in one line each time the goal changes state (active → complete)', async () => {
    const { sandbox } = await cli.setup([
      { text: 'Looking at the notes.' },
      { toolCalls: [{ id: 'claim', name: 'UpdateGoal', args: { status: 'complete' } }] },
      { text: 'The goal is complete.' },
    ]);
    const shell = liveCli(sandbox.spawn(['--ui', 'line']));
    shell.type('/goal --max-turns 4 tidy the notes\n');
    await shell.waitFor('The goal is complete.');
    const lines = shell.stdout.split('\n').filter((line) => line.includes('goal: tidy the notes'));
    expect(lines[0]).toContain('goal: tidy the notes — active · turns 0/4');
    expect(lines.some((line) => line.includes('— complete'))).toBe(true);
    // No line per token count: one per state or turn.
    expect(lines.length).toBeLessThanOrEqual(5);
    expect(await shell.end()).toBe(0);
  });
});
