import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Kimi CLI's SessionStart and SessionEnd hooks: SessionStart once the session is made (its matcher
 * sees `startup`, or `resume` for a session with history), SessionEnd when it closes (`exit`). Each
 * gets its JSON payload on stdin.
 */

const cli = useScriptedCli();

it('SessionStart fires with startup, then resume; SessionEnd fires on exit; each with its payload', async () => {
  const server = await cli.startServer([{ text: 'First.' }, { text: 'Second.' }]);
  const sandbox = await cli.createSandbox({ baseUrl: server.baseUrl });
  const log = join(sandbox.root, 'session-hooks.log');
  const hook = (event: string, matcher: string) =>
    `[[hooks]]\nevent = "${event}"\nmatcher = "${matcher}"\ncommand = "cat >> '${log}'; echo >> '${log}'"\n`;
  const withHooks = await sandbox.pointedAt({
    baseUrl: server.baseUrl,
    extraToml: [hook('SessionStart', '^(startup|resume)$'), hook('SessionEnd', '^exit$')].join('\n'),
  });
  const first = await withHooks.run(['--print', '-p', 'one']);
  expect(first.code, first.stderr).toBe(0);
  const second = await withHooks.run(['--print', '--continue', '-p', 'two']);
  expect(second.code, second.stderr).toBe(0);
  const events = (await readFile(log, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(events.map((e) => [e.hook_event_name, e.source ?? e.reason])).toEqual([
    ['SessionStart', 'startup'],
    ['SessionEnd', 'exit'],
    ['SessionStart', 'resume'],
    ['SessionEnd', 'exit'],
  ]);
  expect(events[0]?.session_id).toBe(events[2]?.session_id);
  expect(events[0]?.cwd).toBe(sandbox.workDir);
});
