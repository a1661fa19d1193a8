import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { plantThenRunAgain, sandboxWithPostShellHook } from '../support/post-shell-hook.js';
import { useScriptedCli } from '../support/scripted-cli.js';

/**
 * Issue #24: what a hook's or MCP server's launcher runs is read as the shell and the launcher read
 * it (src/app/launch-commands.ts, launcher-options.ts), whatever the form: variants of red4's
 * reproductions (hook-launcher-options-held.test.ts) nobody wrote down, and the warning where it
 * cannot be read.
 */

const cli = useScriptedCli();

// Two wrappers, a folder changed by env, a task file named by option relative to that folder.
it('a hook `env --chdir=DIR nice -n 5 make -f FILE`: the task file in DIR is held', async () => {
  const { server, sandbox } = await sandboxWithPostShellHook(
    cli,
    'env --chdir=tools nice -n 5 make -s -f tasks.mk lint',
  );
  const marker = join(sandbox.root, 'hook-ran-planted-code');
  await mkdir(join(sandbox.workDir, 'tools'));
  await writeFile(join(sandbox.workDir, 'tools', 'tasks.mk'), 'lint:\n\t@true\n');
  await plantThenRunAgain(
    server,
    sandbox,
    `printf 'lint:\\n\\t@touch ${marker}\\n' > tools/tasks.mk; echo finished`,
  );
  expect(existsSync(marker), 'the planted command ran outside the sandbox').toBe(false);
});

// An MCP server's words run without a shell, but its `sh -c` string with one: a `cd` there, and a
// python option that takes a value before the module.
it('an MCP server `sh -c "cd DIR && exec python3 -X dev -m server"`: DIR/server.py is held', async () => {
  const scripted = await cli.startServer();
  const sandbox = await cli.createSandbox({ baseUrl: scripted.baseUrl });
  const marker = join(sandbox.root, 'mcp-server-ran-planted-code');
  const mcpConfig = join(sandbox.root, 'mcp.json');
  const project = {
    command: 'sh',
    args: ['-c', 'cd srv && exec python3 -X dev -m server'],
    cwd: sandbox.workDir,
  };
  await writeFile(mcpConfig, JSON.stringify({ mcpServers: { project } }));
  await mkdir(join(sandbox.workDir, 'srv'));
  await writeFile(join(sandbox.workDir, 'srv', 'server.py'), 'pass\n');
  scripted.push(
    {
      toolCalls: [
        {
          id: 'c1',
          name: 'Shell',
          args: { command: `printf 'open("${marker}", "w")\\n' > srv/server.py; echo finished` },
        },
      ],
    },
    { text: 'Done.' },
  );
  const args = ['--mcp-config-file', mcpConfig, '--print', '--output-format', 'stream-json', '-p', 'go'];
  const first = await sandbox.run(args);
  expect(first.code, first.stderr).toBe(0);
  scripted.push({ text: 'Done.' });
  const second = await sandbox.run(args);
  expect(second.code, second.stderr).toBe(0);
  expect(existsSync(marker), 'the planted command ran outside the sandbox').toBe(false);
});

// npm reads `--pref` as `--prefix`: an option kimi-ts does not know is not read as nothing.
it('says at start that it cannot tell what a hook with an option it does not know runs', async () => {
  const { server, sandbox } = await sandboxWithPostShellHook(cli, 'npm --pref=tools run --silent lint');
  server.push({ text: 'Done.' });
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go']);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).toContain(
    'the hook `npm --pref=tools run --silent lint` runs outside any sandbox, and kimi-ts cannot tell what it runs (`npm`: `--pref=tools`, an option kimi-ts does not know)',
  );
});
