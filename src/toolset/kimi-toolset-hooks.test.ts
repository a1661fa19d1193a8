import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHookEngine, type HookConfigInput, parseHookConfigs } from '../hooks/index.js';
import type { HookEngine } from '../hooks/types.js';
import { toolOk } from '../kosong/index.js';
import { Approval } from './approval/approval.js';
import { KimiToolset } from './kimi-toolset.js';
import { dispatchAll, toolCall } from './test-support/dispatch.js';
import { withTestPolicy } from './test-support/test-policy.js';
import { defineTool } from './tool-definition.js';
import { toolErrorKind } from './tool-errors.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-toolset-hooks-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The real hook engine running real commands in the temp dir. */
function realHooks(hooks: HookConfigInput[]): HookEngine {
  return createHookEngine({ hooks: parseHookConfigs(hooks), sessionId: 's1', workDir: dir });
}

function toolsetWith(hooks: HookEngine): KimiToolset {
  const toolset = new KimiToolset(
    withTestPolicy({ hooks, approval: new Approval({ state: { yolo: true } }) }),
  );
  toolset.add(
    defineTool({
      name: 'Scribble',
      description: '',
      params: z.object({ path: z.string() }),
      effect: 'writes-files',
      call: async ({ path }) => {
        await writeFile(path, 'x');
        return toolOk('done', 'wrote it');
      },
    }),
  );
  toolset.add(
    defineTool({
      name: 'Crash',
      description: '',
      params: z.object({}),
      effect: 'read-only',
      call: () => {
        throw new Error('crashed hard');
      },
    }),
  );
  return toolset;
}

describe('hooks around tool calls (real hook commands)', () => {
  it('a PreToolUse hook exiting 2 blocks the call with its stderr as the reason', async () => {
    const engine = realHooks([
      {
        event: 'PreToolUse',
        matcher: '^Scribble$',
        command: 'cat > /dev/null; echo "writes are frozen" >&2; exit 2',
      },
    ]);
    const target = join(dir, 'blocked.txt');
    const [result] = await dispatchAll(toolsetWith(engine), [toolCall('1', 'Scribble', { path: target })]);
    expect(toolErrorKind(result!.return_value)).toBe('hook_blocked');
    expect(result!.return_value.message).toBe('writes are frozen');
    expect(result!.return_value.display).toEqual([{ type: 'brief', text: 'Hook blocked' }]);
    expect(existsSync(target)).toBe(false);
  });

  it('PreToolUse and PostToolUse hooks receive Claude Code style payloads', async () => {
    const pre = join(dir, 'pre.json');
    const post = join(dir, 'post.json');
    const engine = realHooks([
      { event: 'PreToolUse', command: `cat > '${pre}'` },
      { event: 'PostToolUse', command: `cat > '${post}'` },
    ]);
    const target = join(dir, 'allowed.txt');
    const [result] = await dispatchAll(toolsetWith(engine), [toolCall('7', 'Scribble', { path: target })]);
    expect(result!.return_value.output).toBe('done');
    // PostToolUse hooks are fired without waiting; the engine tracks them until they finish.
    await engine.drain();
    const expected = {
      session_id: 's1',
      cwd: dir,
      tool_name: 'Scribble',
      tool_input: { path: target },
      tool_call_id: '7',
    };
    expect(JSON.parse(await readFile(pre, 'utf8'))).toEqual({ hook_event_name: 'PreToolUse', ...expected });
    expect(JSON.parse(await readFile(post, 'utf8'))).toEqual({
      hook_event_name: 'PostToolUse',
      ...expected,
      tool_output: 'wrote it\ndone',
    });
  });

  it('a tool that throws fires PostToolUseFailure with the error', async () => {
    const failure = join(dir, 'failure.json');
    const engine = realHooks([{ event: 'PostToolUseFailure', command: `cat > '${failure}'` }]);
    const [result] = await dispatchAll(toolsetWith(engine), [toolCall('9', 'Crash', {})]);
    expect(toolErrorKind(result!.return_value)).toBe('runtime');
    // PostToolUse hooks are fired without waiting; the engine tracks them until they finish.
    await engine.drain();
    expect(JSON.parse(await readFile(failure, 'utf8'))).toMatchObject({
      hook_event_name: 'PostToolUseFailure',
      tool_name: 'Crash',
      tool_call_id: '9',
      error: 'crashed hard',
    });
  });
});
