import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';
import { toolResults } from '../support/stream-json.js';

/**
 * A git folder a command makes is cleaned "when the command ends, before its
 * result goes back". A person's PostToolUse hook that runs git in the work dir (an auto-commit or
 * status hook) runs outside the sandbox right after the command: does it see the planted fsmonitor?
 * It does not: the new repository is cleaned before the hook runs.
 */

const cli = useScriptedCli();

it('a PostToolUse hook running git does not run the fsmonitor of a repository the command just made', async () => {
  const server = await cli.startServer();
  const sandbox = await cli.createSandbox({
    baseUrl: server.baseUrl,
    extraToml: '[[hooks]]\nevent = "PostToolUse"\nmatcher = "^Shell$"\ncommand = "git status --short"\n',
  });
  const marker = join(sandbox.root, 'fsmonitor-ran');
  const plant = `git init -q && git config core.fsmonitor "touch '${marker}'; false" && echo finished`;
  server.push({ toolCalls: [{ id: 'c1', name: 'Shell', args: { command: plant } }] }, { text: 'Done.' });
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go']);
  expect(result.code, result.stderr).toBe(0);
  expect(toolResults(result.stdout)[0]).toContain('finished');
  expect(existsSync(marker), 'the hook ran the planted fsmonitor outside the sandbox').toBe(false);
});
