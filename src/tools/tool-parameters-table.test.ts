import { describe, expect, it } from 'vitest';
import { declaredParameters } from '../toolset/declared-parameters.js';
import { toolParametersSchema } from '../toolset/loading/json-schema.js';
import { toolParametersTable } from './tool-parameters-table.js';

describe('the built-in tools’ parameter table', () => {
  it('holds, for every built-in tool that declares its parameters, what the runtime conversion gives', async () => {
    const table = await toolParametersTable();
    const keys = [...declaredParameters().keys()].sort();
    expect(Object.keys(table).sort()).toEqual(keys);
    // The default agent's tools (SearchWeb, made only with a search service, converts when made).
    expect(keys).toEqual(
      [
        'Agent',
        'AgentSwarm',
        'AskUserQuestion',
        'CronCreate',
        'CronDelete',
        'CronList',
        'EnterPlanMode',
        'ExitPlanMode',
        'FetchURL',
        'Glob',
        'Grep',
        'ReadFile',
        'ReadMediaFile',
        'SetTodoList',
        'Shell',
        'StrReplaceFile',
        'TaskList',
        'TaskOutput',
        'TaskStop',
        'WaitFor',
        'WriteFile',
      ].sort(),
    );
    // Through JSON (as the bundle carries it) nothing is lost or changed.
    for (const [key, declared] of declaredParameters()) {
      expect(table[key], key).toEqual(toolParametersSchema(declared.schema()));
    }
  });
});
