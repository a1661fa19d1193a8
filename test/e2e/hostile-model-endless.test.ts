import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * A hostile (or broken) model server that never stops its answer: endless text, or a tool call
 * whose arguments never close. The step stops at a cap with a clear error instead of growing the
 * agent's memory without limit; the session stays usable. The cap is lowered through a test-only
 * variable (KIMI_TS_TEST_MAX_ANSWER_CHARS): the real one is 256 Mi characters.
 */

const cli = useScriptedCli();
const CAP = 1_000_000;

it.each([
  ['endless text', 'text'],
  ['endless tool-call arguments', 'arguments'],
] as const)('%s: the step stops at the cap, says so, and the session goes on', async (_name, endless) => {
  const { server, sandbox } = await cli.setup([{ text: 'Sure, ', endless }, { text: 'Second answer.' }]);
  const env = { KIMI_TS_TEST_MAX_ANSWER_CHARS: String(CAP) };
  const first = await sandbox.run(['--print', '-p', 'say something'], { env });
  expect(first.code).toBe(1);
  expect(`${first.stdout}\n${first.stderr}`).toContain(
    `the model's answer passed ${CAP} characters; stopped`,
  );
  // Not retried: a second request would get the endless answer again.
  expect(server.requests).toHaveLength(1);
  // The session was recorded and goes on: its next prompt sends the first one along.
  const second = await sandbox.run(['-C', '--print', '-p', 'again'], { env });
  expect(second.code).toBe(0);
  expect(second.stdout).toContain('Second answer.');
  expect(server.requests).toHaveLength(2);
  expect(JSON.stringify(server.requests[1]?.body)).toContain('say something');
});
