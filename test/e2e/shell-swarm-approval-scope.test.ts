import { describe, expect, it } from 'vitest';
import { liveCli } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { itemsThatRan, scriptSwarmApprovals } from '../support/swarm-approval-scenario.js';

const cli = useScriptedCli();

describe('line shell: approve for all agents of this swarm', () => {
  it("5 covers the swarm's agents; the main agent and the next swarm are asked", async () => {
    const { sandbox, server } = await cli.setup([]);
    scriptSwarmApprovals(server);
    const shell = liveCli(sandbox.spawn([]));
    let seen = 0;
    /** The text of the next question (up to its `approve? `), once it is asked. */
    const nextQuestion = async (): Promise<string> => {
      const start = seen;
      await new Promise<void>((resolve) => {
        const check = () => {
          if (shell.stdout.indexOf('approve? ', start) >= 0) {
            shell.child.stdout!.off('data', check);
            resolve();
          }
        };
        shell.child.stdout!.on('data', check);
        check();
      });
      const end = shell.stdout.indexOf('approve? ', start) + 'approve? '.length;
      seen = end;
      return shell.stdout.slice(start, end);
    };
    shell.type('Run the swarms.\n');
    const first = await nextQuestion();
    expect(first).toMatch(/First swarm #\d asks:/);
    expect(first).toContain('5 approve for all agents of this swarm');
    shell.type('5\n');
    await shell.waitFor(
      'For the agents of this swarm (not the main agent, not another swarm), until it ends',
    );
    await shell.waitFor('scope? ');
    shell.type('1\n');
    // The main agent's identical command: asked, unmarked, without choice 5.
    const main = await nextQuestion();
    expect(main).not.toContain('asks:');
    expect(main).not.toContain('5 approve for all agents of this swarm');
    shell.type('1\n');
    expect(await nextQuestion()).toMatch(/Second swarm #\d asks:/);
    shell.type('1\n');
    expect(await nextQuestion()).toMatch(/Second swarm #\d asks:/);
    shell.type('1\n');
    await shell.waitFor('All swarms are done.');
    expect(itemsThatRan(server)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(await shell.end()).toBe(0);
  });
});
