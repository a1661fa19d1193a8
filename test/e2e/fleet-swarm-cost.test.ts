import { expect, it } from 'vitest';
import { parseQueueUrl } from '../../src/fleet/queue-address.js';
import { connectRedis } from '../../src/fleet/redis-connection.js';
import { readSessionCosts } from '../../src/fleet/session-cost.js';
import { startRedis, startWorker, submit } from '../support/fleet-cli.js';
import { ITEMS, itemOf, lastRole, ROOT_PROMPT, reportFor, swarmCall } from '../support/fleet-swarm.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import type { ScriptedTurn } from '../support/scripted-llm-server.js';

const cli = useScriptedCli();

it("a fleet session's cost counts its swarm items' steps (child jobs on any worker), not only the root's", async () => {
  const { server, sandbox } = await cli.setup([], { extraToml: 'price = { input = 2, output = 10 }' });
  // Every request the model answers, priced as the worker prices it: $2 / M in, $10 / M out.
  let expected = 0;
  const priced = (turn: ScriptedTurn, input: number, output: number): ScriptedTurn => {
    expected += (input * 2 + output * 10) / 1_000_000;
    return { ...turn, usage: { prompt_tokens: input, completion_tokens: output } };
  };
  server.answerBy((body): ScriptedTurn => {
    const item = itemOf(body);
    if (item !== null) return priced({ text: reportFor(item) }, 20_000, 2_000);
    return lastRole(body) === 'tool'
      ? priced({ text: 'All three parts are done.' }, 30_000, 3_000)
      : priced(swarmCall('none'), 10_000, 1_000);
  });
  const redis = await startRedis(cli);
  await startWorker(cli, sandbox, redis.url);
  const done = await submit(sandbox, redis.url, ROOT_PROMPT, ['--wait', '--yolo']);
  expect(done.stdout).toContain('All three parts are done.');
  const sessionId = done.stdout.split('\n')[0]!;
  // The three items ran as child jobs, each one request at least.
  expect(server.requests.filter((r) => itemOf(r.body) !== null).length).toBeGreaterThanOrEqual(ITEMS.length);
  const client = await connectRedis(parseQueueUrl(redis.url), { graceMs: 1000 });
  try {
    const cost = (await readSessionCosts(client, [sessionId])).get(sessionId);
    expect(cost).toBeCloseTo(expected, 10);
    expect(expected).toBeGreaterThan(0.18);
  } finally {
    client.disconnect();
  }
});
