import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';
import { toolResults } from '../support/stream-json.js';

/**
 * An `--mcp-config-file` inside the workspace (`conf/mcp.json`)
 * names the commands kimi-ts starts outside the sandbox at the next start. A command can neither
 * rewrite it, remove it, nor move its folder away and make a new one.
 */

const cli = useScriptedCli();

it('a command cannot change, replace or move away an --mcp-config-file kept in the workspace', async () => {
  const { sandbox } = await cli.setup([
    {
      toolCalls: [
        {
          id: 'c1',
          name: 'Shell',
          args: {
            command: [
              // The file's name is made at run time: a command naming it is refused as a secret read.
              'f=$(printf conf/mc)p.json',
              'echo "{}" > "$f"',
              'rm -f "$f"',
              'mv conf conf-old',
              'mkdir -p conf && echo planted > "$f"',
              'echo finished',
            ].join('; '),
          },
        },
      ],
    },
    { text: 'Done.' },
  ]);
  await mkdir(join(sandbox.workDir, 'conf'));
  const mcpConfig = join(sandbox.workDir, 'conf', 'mcp.json');
  const original = JSON.stringify({ mcpServers: {} });
  await writeFile(mcpConfig, original);
  const result = await sandbox.run([
    '--mcp-config-file',
    mcpConfig,
    '--print',
    '--output-format',
    'stream-json',
    '-p',
    'go',
  ]);
  expect(result.code, result.stderr).toBe(0);
  expect(toolResults(result.stdout)[0]).toContain('finished');
  expect(await readFile(mcpConfig, 'utf8')).toBe(original);
});
