import { chmod, copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createSession, parseEventPayload, parseRequestPayload } from '@moonshot-ai/kimi-agent-sdk';
import { describe, expect, it } from 'vitest';
import { CLI, CLI_NODE } from '../support/run-cli.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { onlySessionDir } from '../support/session-files.js';

// Moonshot's own wire client drives kimi-ts unchanged: it spawns the executable with
// `--work-dir DIR --wire`, speaks JSON-RPC over stdio and validates every event and request it reads
// with its own zod schemas (a mismatch surfaces as an `error` event in the turn).

const cli = useScriptedCli();

/** An executable the SDK can spawn: the built CLI under this Node, with the sandbox's home. */
async function kimiExecutable(): Promise<string> {
  const path = join(cli.sandbox.root, 'kimi');
  await writeFile(path, `#!/bin/sh\nexec "${CLI_NODE}" "${CLI}" "$@"\n`);
  await chmod(path, 0o755);
  // No --config-file from the SDK: the config lives where kimi-ts looks by default.
  await copyFile(cli.sandbox.configFile, join(cli.sandbox.home, 'config.toml'));
  return path;
}

describe("Moonshot's kimi-agent-sdk", () => {
  it('runs a turn with a tool call and an approval; every event passes its schemas', async () => {
    await cli.setup([
      { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: 'echo from-the-sdk > out.txt' } }] },
      { text: 'Wrote the file.' },
    ]);
    const session = createSession({
      workDir: cli.sandbox.workDir,
      executable: await kimiExecutable(),
      env: cli.sandbox.env() as Record<string, string>,
    });
    try {
      const turn = session.prompt('write a file');
      const types: string[] = [];
      const errors: unknown[] = [];
      let text = '';
      for await (const event of turn) {
        types.push(event.type);
        if (event.type === 'error') errors.push(event);
        if (event.type === 'ApprovalRequest') await turn.approve(event.payload.id, 'approve');
        if (event.type === 'ContentPart') {
          const part = event.payload as { type: string; text?: string };
          if (part.type === 'text') text += part.text ?? '';
        }
      }
      expect(errors).toEqual([]);
      expect((await turn.result).status).toBe('finished');
      expect(types).toEqual(expect.arrayContaining(['TurnBegin', 'StepBegin', 'ToolCall', 'ToolResult']));
      expect(types).toContain('ApprovalRequest');
      expect(text).toBe('Wrote the file.');
      expect(await readFile(join(cli.sandbox.workDir, 'out.txt'), 'utf8')).toBe('from-the-sdk\n');
    } finally {
      await session.close();
    }

    // Every message kimi-ts recorded in wire.jsonl passes the SDK's schemas too.
    const lines = (await readFile(join(await onlySessionDir(cli.sandbox.home), 'wire.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .slice(1);
    const recorded = lines.map(
      (line) => (JSON.parse(line) as { message: { type: string; payload: unknown } }).message,
    );
    const rejected = recorded.filter((m) => {
      const parsed = m.type.endsWith('Request')
        ? parseRequestPayload(m.type, m.payload)
        : parseEventPayload(m.type, m.payload);
      return !parsed.ok;
    });
    expect(rejected).toEqual([]);
    expect(recorded.map((m) => m.type)).toEqual(
      expect.arrayContaining(['TurnBegin', 'ToolCall', 'ApprovalRequest', 'ToolResult', 'TurnEnd']),
    );
  });

  it('rejects an action through the SDK: nothing runs and the turn stops', async () => {
    await cli.setup([
      { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: 'touch never.txt' } }] },
      { text: 'Understood.' },
    ]);
    const session = createSession({
      workDir: cli.sandbox.workDir,
      executable: await kimiExecutable(),
      env: cli.sandbox.env() as Record<string, string>,
    });
    try {
      const turn = session.prompt('touch a file');
      for await (const event of turn) {
        if (event.type === 'ApprovalRequest') await turn.approve(event.payload.id, 'reject');
      }
      await turn.result;
    } finally {
      await session.close();
    }
    const { existsSync } = await import('node:fs');
    expect(existsSync(join(cli.sandbox.workDir, 'never.txt'))).toBe(false);
    // A plain rejection ends a root turn (Kimi CLI's `tool_rejected`): no further model call.
    expect(cli.server.requests).toHaveLength(1);
  });
});
