import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Approval } from '../../toolset/approval/approval.js';
import { KimiToolset } from '../../toolset/kimi-toolset.js';
import { withTestPolicy } from '../../toolset/test-support/test-policy.js';
import type { BackgroundTaskManager } from './background-task-manager.js';
import { makeTempDir, openManager, planModeSwitch, removeDir } from './test-support/task-harness.js';

let dir: string;
let manager: BackgroundTaskManager;
beforeEach(async () => {
  dir = await makeTempDir('kimi-ts-specs-');
  manager = await openManager(join(dir, 'session'));
});
afterEach(async () => {
  await manager.shutdown();
  await removeDir(dir);
});

it('the tools load from the module:Export specs an agent spec lists', async () => {
  const toolset = new KimiToolset(withTestPolicy({ approval: new Approval() }));
  const loaded = await toolset.loadTools(
    [
      'kimi-ts/tools/shell/shell:Shell',
      'kimi-ts/tools/background/task-list:TaskList',
      'kimi-ts/tools/background/task-output:TaskOutput',
      'kimi-ts/tools/background/task-stop:TaskStop',
    ],
    {
      workDir: dir,
      processEnv: process.env,
      commandSandbox: null,
      backgroundTasks: manager,
      role: 'root',
      planMode: planModeSwitch(),
      descriptionVars: {},
    },
    { baseDir: dir },
  );
  expect(loaded.tools.map((tool) => [tool.name, tool.effect])).toEqual([
    ['Shell', 'runs-commands'],
    ['TaskList', 'read-only'],
    ['TaskOutput', 'read-only'],
    ['TaskStop', 'runs-commands'],
  ]);
  const shell = toolset.find('Shell');
  expect(shell?.description).toContain(`(${dir})`);
  expect(shell?.description).not.toContain('${');
});
