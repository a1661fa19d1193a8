import { cp, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { useScriptedCli } from '../support/scripted-cli.js';
import { toolResults } from '../support/stream-json.js';

/**
 * Issue #24. A folder the sandbox holds read-only (an agent spec's, a hook script's) is bound last,
 * on top of the workspace: a config file kimi-ts loaded from inside that folder must stay hidden,
 * not come back with the folder's bind.
 */

const cli = useScriptedCli();
const example = resolve(import.meta.dirname, '../../examples/custom-tool');

it("a config file beside the agent spec stays hidden from commands when the spec's folder is held", async () => {
  const { sandbox } = await cli.setup([
    { toolCalls: [{ id: 'c1', name: 'Shell', args: { command: 'grep -r api_key . ; echo finished' } }] },
    { text: 'Done.' },
  ]);
  const agent = join(sandbox.workDir, 'agent');
  await cp(example, agent, { recursive: true });
  const config = join(agent, 'config.toml');
  await writeFile(config, await readFile(sandbox.configFile, 'utf8'));
  const result = await sandbox.run(
    [
      '--config-file',
      config,
      '-w',
      sandbox.workDir,
      '--agent-file',
      join(agent, 'agent.yaml'),
      '--print',
      '--output-format',
      'stream-json',
      '-p',
      'go',
    ],
    { bare: true },
  );
  expect(result.code, result.stderr).toBe(0);
  const [shellResult] = toolResults(result.stdout);
  expect(shellResult).toContain('finished');
  // Nothing of the config file comes back (the key itself would be redacted, its other lines not).
  expect(shellResult).not.toContain('api_key');
});
