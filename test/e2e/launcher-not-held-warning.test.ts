import { expect, it } from 'vitest';
import { sandboxWithPostShellHook } from '../support/post-shell-hook.js';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24: a hook that builds and runs the project's own source (`cargo run`, `go run .`) runs what
 * commands may write, and the sandbox cannot hold a source tree the model works on: the start says
 * so, naming the hook (src/app/launcher-holds.ts), rather than nothing.
 */

const cli = useScriptedCli();

it('says at start that a hook runs source the sandbox cannot hold', async () => {
  const { server, sandbox } = await sandboxWithPostShellHook(cli, 'cargo run --quiet');
  server.push({ text: 'Done.' });
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go']);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).toContain(
    "the hook `cargo run --quiet` runs outside any sandbox, and `cargo run` builds and runs the project's source",
  );
});

it('says nothing of a hook that runs only what kimi-ts holds', async () => {
  const { server, sandbox } = await sandboxWithPostShellHook(cli, 'make lint');
  server.push({ text: 'Done.' });
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go']);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).not.toContain('runs outside any sandbox');
});
