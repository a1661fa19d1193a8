import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { sandboxWithPostShellHook } from '../support/post-shell-hook.js';
import { useScriptedCli } from '../support/scripted-cli.js';
import { toolResults } from '../support/stream-json.js';

/**
 * Issue #24 (holes5, 4): a hook whose `python` is a virtual environment's, found on PATH rather than
 * named by its path — the line activates it (`source .venv/bin/activate && python …`), puts its bin
 * first (`PATH=.venv/bin:$PATH python …`), or kimi-ts itself was started with it on PATH. Python runs
 * the `.pth` files of that environment's site-packages at start: a command that planted one ran its
 * code outside the sandbox at the hook's next run. Its site-packages is held as for `.venv/bin/python`.
 */

const cli = useScriptedCli();

async function hookRunsPlantedPth(
  hookCommand: string,
  env: (workDir: string) => Record<string, string> = () => ({}),
): Promise<void> {
  const { server, sandbox } = await sandboxWithPostShellHook(cli, hookCommand);
  const marker = join(sandbox.root, 'hook-ran-planted-code');
  execFileSync('python3', ['-m', 'venv', '--without-pip', join(sandbox.workDir, '.venv')]);
  await mkdir(join(sandbox.workDir, 'scripts'));
  await writeFile(join(sandbox.workDir, 'scripts', 'check.py'), 'pass\n');
  const plant = `for d in .venv/lib/python3*/site-packages; do echo 'import os; open("${marker}", "w")' > $d/zz.pth; done; echo finished`;
  server.push(
    { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: plant } }] },
    { toolCalls: [{ id: 'c2', name: 'Shell', args: { command: 'echo again' } }] },
    { text: 'Done.' },
  );
  const result = await sandbox.run(['--print', '--output-format', 'stream-json', '-p', 'go'], {
    env: env(sandbox.workDir),
  });
  expect(result.code, result.stderr).toBe(0);
  expect(toolResults(result.stdout)[0]).toContain('finished');
  expect(existsSync(marker), 'the planted .pth ran outside the sandbox').toBe(false);
}

it('source .venv/bin/activate && python SCRIPT: the environment’s site-packages is held', async () => {
  await hookRunsPlantedPth('. .venv/bin/activate && python scripts/check.py');
});

it('PATH=.venv/bin:$PATH python SCRIPT: the environment’s site-packages is held', async () => {
  await hookRunsPlantedPth('PATH=.venv/bin:$PATH python3 scripts/check.py');
});

it('kimi-ts started with the environment on PATH: python SCRIPT holds its site-packages', async () => {
  await hookRunsPlantedPth('python3 scripts/check.py', (workDir) => ({
    PATH: `${join(workDir, '.venv', 'bin')}:${process.env.PATH}`,
  }));
});
