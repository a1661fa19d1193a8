import { describe, expect, it } from 'vitest';
import { toolParametersTable } from '../../src/tools/tool-parameters-table.js';
import { useScriptedCli } from '../support/scripted-cli.js';

const cli = useScriptedCli();

interface OfferedTool {
  type: string;
  function: { name: string; parameters: unknown };
}

// The bundle carries the built-in tools' JSON Schemas, made when it was built (scripts/bundle.mjs):
// what the built CLI offers the model must be what converting the sources' zod schemas gives now.
describe('the built-in tools the model is offered', () => {
  it('carry the JSON Schemas the runtime conversion of their zod parameters gives', async () => {
    const { server, sandbox } = await cli.setup([{ text: 'ok' }]);
    const result = await sandbox.run(['--print', '-p', 'hi']);
    expect(result.code).toBe(0);
    expect(server.requests).toHaveLength(1);
    const tools = (server.requests[0]!.body as { tools: OfferedTool[] }).tools;
    const expected = await toolParametersTable();
    const offered = Object.fromEntries(tools.map((tool) => [tool.function.name, tool.function.parameters]));
    // The default agent offers these; each declares its parameters under its own name.
    for (const name of [
      'Shell',
      'ReadFile',
      'WriteFile',
      'StrReplaceFile',
      'Grep',
      'Glob',
      'Agent',
      'CronCreate',
    ]) {
      expect(offered[name], name).toBeDefined();
    }
    for (const [name, parameters] of Object.entries(offered)) {
      if (name in expected) expect(parameters, name).toEqual(expected[name]);
    }
    expect(Object.keys(offered).filter((name) => name in expected).length).toBeGreaterThanOrEqual(20);
  });
});
