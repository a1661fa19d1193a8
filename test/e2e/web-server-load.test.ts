import { describe, expect, test } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';
import type { ScriptedTurn } from '../support/scripted-llm-server.js';
import { startWebServer, WebWireClient } from '../support/web-server-client.js';

const cli = useScriptedCli();
const SESSIONS = 5;

/** Answers from the history: two Shell calls per turn, then the answer. */
function answer(body: unknown): ScriptedTurn {
  const messages = (body as { messages: { role: string }[] }).messages;
  const lastUser = messages.findLastIndex((m) => m.role === 'user');
  const toolsSince = messages.slice(lastUser + 1).filter((m) => m.role === 'tool').length;
  if (toolsSince >= 2) return { text: 'Both steps ran.' };
  return {
    toolCalls: [
      {
        id: `call-${toolsSince}-${Math.random()}`,
        name: 'Shell',
        args: { command: `echo step-${toolsSince}` },
      },
    ],
  };
}

describe('kimi-ts web: load', () => {
  test(`${SESSIONS} sessions at once, each driven and watched: every turn finishes, both clients see the same events`, async () => {
    const { sandbox, server: model } = await cli.setup([]);
    model.answerBy(answer);
    const server = await startWebServer(sandbox, [], ['--yolo']);
    try {
      const ids: string[] = [];
      for (let i = 0; i < SESSIONS; i++) {
        const response = await server.api('/api/sessions', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ work_dir: sandbox.workDir }),
        });
        ids.push(((await response.json()) as { session: { id: string } }).session.id);
      }
      await Promise.all(
        ids.map(async (id) => {
          const driver = await WebWireClient.connect(server, id);
          const watcher = await WebWireClient.connect(server, id);
          await driver.request('initialize', { protocol_version: '1.10' });
          expect((await driver.request('prompt', { user_input: 'go' })).result).toEqual({
            status: 'finished',
          });
          await watcher.event('TurnEnd');
          const frames = (c: WebWireClient) =>
            c.messages.filter((m) => m.method === 'event').map((m) => JSON.stringify(m));
          expect(frames(watcher)).toEqual(frames(driver));
          expect(driver.streamTypes().filter((t) => t === 'ToolResult')).toHaveLength(2);
          await Promise.all([driver.close(), watcher.close()]);
        }),
      );
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
