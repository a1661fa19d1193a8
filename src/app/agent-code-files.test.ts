import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { agentCodeFiles } from './agent-code-files.js';
import { DEFAULT_AGENT_FILE, loadAgentSpec } from './agent-spec.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'kimi-ts-agent-files-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it("names the spec, the specs it extends, its prompt, its subagents' specs and its own tool modules' files", async () => {
  const agent = join(root, 'agent');
  mkdirSync(join(agent, 'tools'), { recursive: true });
  writeFileSync(join(agent, 'prompt.md'), 'You help.');
  writeFileSync(join(agent, 'tools', 'count.mjs'), 'export const Count = {};');
  writeFileSync(
    join(agent, 'base.yaml'),
    'version: 1\nagent:\n  extend: default\n  system_prompt_path: ./prompt.md\n  subagents:\n    helper:\n      path: ./helper.yaml\n      description: helps\n',
  );
  writeFileSync(
    join(agent, 'agent.yaml'),
    'version: 1\nagent:\n  extend: ./base.yaml\n  tools:\n    - "kimi-ts/tools/shell/shell:Shell"\n    - "./tools/count:Count"\n    - "no-such-package:Missing"\n',
  );
  const spec = await loadAgentSpec(join(agent, 'agent.yaml'));
  const files = agentCodeFiles(spec);
  const ours = files.filter((file) => file.startsWith(root));
  expect(ours).toEqual([
    join(agent, 'agent.yaml'),
    join(agent, 'base.yaml'),
    join(agent, 'prompt.md'),
    join(agent, 'helper.yaml'),
    join(agent, 'tools', 'count.mjs'),
  ]);
  // The rest are the default agent's own (the base of the base): its spec and its subagents' specs.
  const defaults = dirname(realpathSync(DEFAULT_AGENT_FILE));
  expect(files.filter((file) => !file.startsWith(root)).every((file) => file.startsWith(defaults))).toBe(
    true,
  );
  expect(files).toContain(realpathSync(DEFAULT_AGENT_FILE));
});
