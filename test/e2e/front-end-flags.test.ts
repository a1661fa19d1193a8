import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { runEditor } from '../support/acp-editor.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { startWebServer, WebWireClient } from '../support/web-server-client.js';

const cli = useScriptedCli();

/** What bash says in the sandbox about the write outside (the folder is read-only, or not there at all). */
const OUTSIDE_REFUSED = /outside\/evil\.txt: (Read-only file system|No such file or directory)/;

/**
 * One scenario for every front end: a Shell call that writes in the workspace, in an --add-dir
 * folder and outside both. With --sandbox only the last fails; with --max-steps-per-turn 1 the turn
 * stops after that step (the second scripted answer is never asked for); the system prompt names
 * the added folder.
 */
async function setUp() {
  const { server, sandbox } = await cli.setup([
    {
      toolCalls: [
        {
          id: 's1',
          name: 'Shell',
          args: {
            command:
              'echo in > inside.txt; echo add > ../extra/added.txt; echo evil > ../outside/evil.txt; echo ran',
          },
        },
      ],
    },
    { text: 'a second step that must not run' },
  ]);
  const extra = join(sandbox.root, 'extra');
  await mkdir(extra);
  await mkdir(join(sandbox.root, 'outside'));
  const flags = ['--yolo', '--sandbox', '--max-steps-per-turn', '1', '--add-dir', extra];
  return { server, sandbox, extra, flags };
}

function expectFlagsHonoured(scene: Awaited<ReturnType<typeof setUp>>): void {
  const { server, sandbox, extra } = scene;
  expect(server.requests).toHaveLength(1);
  expect(JSON.stringify(server.requests[0]!.body)).toContain(extra);
  expect(existsSync(join(sandbox.workDir, 'inside.txt'))).toBe(true);
  expect(existsSync(join(extra, 'added.txt'))).toBe(true);
  expect(existsSync(join(sandbox.root, 'outside', 'evil.txt'))).toBe(false);
}

describe('every front end honours the session flags', () => {
  it('kimi-ts web: --max-steps-per-turn, --add-dir and --sandbox reach the sessions the page opens', async () => {
    const scene = await setUp();
    // Before `web`, as Kimi CLI takes them (web owns -h/-p/-n after its name).
    const server = await startWebServer(scene.sandbox, [], scene.flags);
    try {
      const created = await server.api('/api/sessions', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ work_dir: scene.sandbox.workDir }),
      });
      expect(created.status).toBe(201);
      const { id } = ((await created.json()) as { session: { id: string } }).session;
      const client = await WebWireClient.connect(server, id);
      await client.request('initialize', { protocol_version: '1.10' });
      const prompt = await client.request('prompt', { user_input: 'go' });
      expect(prompt.result).toEqual({ status: 'max_steps_reached', steps: 1 });
      expect(JSON.stringify(client.messages)).toMatch(OUTSIDE_REFUSED);
      await client.close();
    } finally {
      expect(await server.stop()).toBe(0);
    }
    expectFlagsHonoured(scene);
  });

  it('kimi-ts acp: the same flags reach the sessions an editor opens', async () => {
    const scene = await setUp();
    const { result, exitCode } = await runEditor(
      { sandbox: scene.sandbox, extraArgs: scene.flags },
      async (ctx, editor) => {
        const { sessionId } = await ctx.request(acp.methods.agent.session.new, {
          cwd: scene.sandbox.workDir,
          mcpServers: [],
        });
        const reply = await ctx.request(acp.methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: 'text', text: 'go' }],
        });
        return { reply, editor };
      },
    );
    expect(exitCode).toBe(0);
    expect(result.reply.stopReason).toBe('max_turn_requests');
    // --yolo: nothing was asked.
    expect(result.editor.permissions).toEqual([]);
    expect(JSON.stringify(result.editor.updates)).toMatch(OUTSIDE_REFUSED);
    expectFlagsHonoured(scene);
  });
});
