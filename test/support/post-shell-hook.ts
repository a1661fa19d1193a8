import { expect } from 'vitest';
import type { CliResult, CliSandbox } from './run-cli.js';
import type { ScriptedCli } from './scripted-cli.js';
import type { ScriptedLLMServer } from './scripted-llm-server.js';
import { toolResults } from './stream-json.js';

/**
 * A sandbox whose config runs `hookCommand` (the person's hook, outside the sandbox) after each Shell
 * call: the set-up of the tests where a command plants something for a hook to run.
 */
export async function sandboxWithPostShellHook(
  cli: ScriptedCli,
  hookCommand: string,
): Promise<{ server: ScriptedLLMServer; sandbox: CliSandbox }> {
  const server = await cli.startServer();
  const sandbox = await cli.createSandbox({
    baseUrl: server.baseUrl,
    extraToml: `[[hooks]]\nevent = "PostToolUse"\nmatcher = "^Shell$"\ncommand = ${JSON.stringify(hookCommand)}\n`,
  });
  return { server, sandbox };
}

/**
 * A print session whose model runs `plant` (a Shell command that must finish: it ends in `echo
 * finished`), then a harmless second command, so the hook runs after each; the session must end well.
 */
export async function plantThenRunAgain(
  server: ScriptedLLMServer,
  sandbox: CliSandbox,
  plant: string,
): Promise<CliResult> {
  server.push(
    { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: plant } }] },
    { toolCalls: [{ id: 'c2', name: 'Shell', args: { command: 'echo again' } }] },
    { text: 'Done.' },
  );
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go']);
  expect(result.code, result.stderr).toBe(0);
  expect(toolResults(result.stdout)[0]).toContain('finished');
  return result;
}
