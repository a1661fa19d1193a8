import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCommandSandbox } from '../../policy/sandbox.js';
import type { BackgroundTaskManager } from '../background/background-task-manager.js';
import {
  callTool,
  makeTempDir,
  openManager,
  outputText,
  removeDir,
  toolsetWith,
} from '../background/test-support/task-harness.js';
import { Shell } from './shell.js';

let dir: string;
let workDir: string;
let manager: BackgroundTaskManager;

beforeEach(async () => {
  dir = await makeTempDir('kimi-ts-shell-bg-sandbox-');
  workDir = join(dir, 'work');
  await mkdir(workDir);
  await mkdir(join(dir, 'home', '.kimi-ts'), { recursive: true });
  manager = await openManager(join(dir, 'session'));
});
afterEach(async () => {
  await manager.shutdown();
  await removeDir(dir);
});

describe('Shell in the background, sandboxed', () => {
  it("a repository a background command made is read-only to the next command (its hooks can't be planted)", async () => {
    const state = createCommandSandbox(
      { mode: 'workspace-write', network: false },
      {
        workDir,
        additionalDirs: () => [],
        userHome: join(dir, 'home'),
        kimiHome: join(dir, 'home', '.kimi-ts'),
        path: process.env.PATH,
      },
    );
    if (state.kind !== 'on') throw new Error(`expected a sandbox, got ${state.kind}`);
    const toolset = await toolsetWith([Shell], {
      workDir,
      processEnv: { ...process.env },
      commandSandbox: state.sandbox,
      backgroundTasks: manager,
      role: 'root',
    });
    const started = await callTool(toolset, 'Shell', {
      command: 'git init -q sub',
      run_in_background: true,
      description: 'make a repository',
    });
    const id = /^task_id: (\S+)$/m.exec(outputText(started))?.[1];
    expect((await manager.wait(id!, 20_000)).runtime).toMatchObject({ status: 'completed' });
    expect(existsSync(join(workDir, 'sub', '.git', 'hooks'))).toBe(true);

    const attack = await callTool(toolset, 'Shell', {
      command: "printf '#!/bin/sh\\ntouch pwned\\n' > sub/.git/hooks/post-checkout; echo tried",
    });
    expect(outputText(attack)).toContain('tried');
    expect(outputText(attack)).toContain('Read-only file system');
    expect(existsSync(join(workDir, 'sub', '.git', 'hooks', 'post-checkout'))).toBe(false);
    state.sandbox.dispose();
  });
});
