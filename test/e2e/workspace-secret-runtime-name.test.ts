import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24, "secrets by name and content" and "decisions on text while actions happen on the real
 * thing" (red team red3): red2's fix for names built at run time hid the home's credentials in the
 * sandbox; the workspace's secret files stay visible there, so a print-mode command that builds the
 * name of `.env` at run time (no whole-folder read: one file) hands it to the model.
 */

const cli = useScriptedCli();

const TOKEN = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
const REVERSED = [...TOKEN].reverse().join('');

it.each([
  ['a command substitution', 'cat "$(printf .en)v" | rev'],
  ['a variable from a listing', 'x=$(ls -a | grep en); cat $x | rev'],
])('.env named by %s is not read in print mode', async (_, command) => {
  const { server, sandbox } = await cli.setup([
    { toolCalls: [{ id: 'c', name: 'Shell', args: { command } }] },
    { text: 'done' },
  ]);
  await writeFile(join(sandbox.workDir, '.env'), `GITHUB_TOKEN=${TOKEN}\n`);
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'look']);
  expect(result.code).toBe(0);
  const { messages } = server.requests[1]!.body as { messages: { role: string; content: unknown }[] };
  expect(JSON.stringify(messages.filter((m) => m.role === 'tool'))).not.toContain(REVERSED);
});
