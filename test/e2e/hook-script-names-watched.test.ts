import { existsSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';
import { toolResults } from '../support/stream-json.js';

/**
 * Issue #24 (red team). A hook's script in the workspace is held read-only by itself, but a name is
 * not held: a script the hook names that is missing at start, or a symlink, could be made or replaced
 * by a command and run outside the sandbox at the next hook event. The hook is skipped then, with a
 * warning (src/app/hook-script-watch.ts). (A module planted beside a Python hook script, which Python
 * imports from the script's folder, is not covered: the README says so.)
 */

const cli = useScriptedCli();

it("a command cannot create the script a person's hook names when it is missing at start (a global hook, a project without it)", async () => {
  const server = await cli.startServer();
  const sandbox = await cli.createSandbox({
    baseUrl: server.baseUrl,
    extraToml: '[[hooks]]\nevent = "PostToolUse"\nmatcher = "^Shell$"\ncommand = "sh scripts/hook.sh"\n',
  });
  const marker = join(sandbox.root, 'hook-ran-created-script');
  const plant = `mkdir -p scripts && echo "touch '${marker}'" > scripts/hook.sh; echo finished`;
  server.push(
    { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: plant } }] },
    { toolCalls: [{ id: 'c2', name: 'Shell', args: { command: 'echo again' } }] },
    { text: 'Done.' },
  );
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go']);
  expect(result.code, result.stderr).toBe(0);
  expect(toolResults(result.stdout)[0]).toContain('finished');
  expect(existsSync(marker), 'the hook ran the created script outside the sandbox').toBe(false);
  expect(result.stderr).toContain('A hook is skipped: scripts/hook.sh');
});

it("a command cannot replace a hook's script that is a symlink (only the file it leads to is held)", async () => {
  const server = await cli.startServer();
  const sandbox = await cli.createSandbox({
    baseUrl: server.baseUrl,
    extraToml: '[[hooks]]\nevent = "PostToolUse"\nmatcher = "^Shell$"\ncommand = "sh scripts/hook.sh"\n',
  });
  const marker = join(sandbox.root, 'hook-ran-replaced-link');
  await mkdir(join(sandbox.workDir, 'scripts'));
  await mkdir(join(sandbox.workDir, 'shared'));
  await writeFile(join(sandbox.workDir, 'shared', 'format.sh'), 'exit 0\n');
  await symlink('../shared/format.sh', join(sandbox.workDir, 'scripts', 'hook.sh'));
  const plant = `rm scripts/hook.sh && echo "touch '${marker}'" > scripts/hook.sh; echo finished`;
  server.push(
    { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: plant } }] },
    { toolCalls: [{ id: 'c2', name: 'Shell', args: { command: 'echo again' } }] },
    { text: 'Done.' },
  );
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go']);
  expect(result.code, result.stderr).toBe(0);
  expect(toolResults(result.stdout)[0]).toContain('finished');
  expect(existsSync(marker), 'the hook ran the replaced script outside the sandbox').toBe(false);
  expect(result.stderr).toContain('A hook is skipped: scripts/hook.sh');
});
