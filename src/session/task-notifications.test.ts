import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WireNotificationSource } from '../soul/run-soul.js';
import type { BackgroundTaskManager, BashTaskRequest } from '../tools/background/background-task-manager.js';
import { makeTempDir, openManager, removeDir } from '../tools/background/test-support/task-harness.js';
import type { BackgroundConfig } from '../tools/runtime.js';
import { commandEnvironment, findBash } from '../tools/shell/shell-environment.js';
import type { LLMNotificationSource } from '../wire/llm-notification.js';
import { NotificationOutbox } from './notification-outbox.js';

/** Background tasks' notifications, from the manager that publishes them through the session's outbox. */

let dir: string;
let sessionDir: string;
let manager: BackgroundTaskManager;
let outbox: NotificationOutbox;
let errors: unknown[];
const bash = findBash(process.env, []) as string;

async function openSession(
  folder: string,
  config: Partial<BackgroundConfig> = {},
): Promise<{ manager: BackgroundTaskManager; outbox: NotificationOutbox }> {
  const outbox = await NotificationOutbox.open(join(folder, 'notifications'));
  return { manager: await openManager(folder, config, errors, outbox), outbox };
}

beforeEach(async () => {
  dir = await makeTempDir('kimi-ts-task-notifications-');
  sessionDir = join(dir, 'session');
  errors = [];
  ({ manager, outbox } = await openSession(sessionDir));
});
afterEach(async () => {
  await manager.shutdown();
  await removeDir(dir);
  expect(errors).toEqual([]);
});

function bashTask(command: string, extra: Partial<BashTaskRequest> = {}): BashTaskRequest {
  return {
    command,
    description: `run ${command}`,
    timeoutS: null,
    cwd: dir,
    env: commandEnvironment(process.env, bash, []),
    shellPath: bash,
    ...extra,
  };
}

describe('notifications', () => {
  it('each ended task produces one notification, delivered once to the model and once to the Wire', async () => {
    const llmSource: LLMNotificationSource = outbox;
    const wireSource: WireNotificationSource = outbox;
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n');
    const { spec } = await manager.startBash(
      bashTask(`printf '${lines}\\n'`, { description: 'print lines' }),
    );
    await manager.wait(spec.id, 10_000);

    const forModel = await llmSource.claimForLLM(4, new AbortController().signal);
    expect(forModel).toHaveLength(1);
    const [first] = forModel;
    expect(first?.type).toBe('task.completed');
    expect(first?.hookFields).toMatchObject({
      title: 'Background task completed: print lines',
      severity: 'success',
    });
    const text = first?.text ?? '';
    expect(text).toMatch(
      new RegExp(
        `^<notification id="n[0-9a-f]{8}" category="task" type="task.completed" source_kind="background_task" source_id="${spec.id}">\\n`,
      ),
    );
    expect(text).toContain('\nTitle: Background task completed: print lines\nSeverity: success\n');
    expect(text).toContain(`\nTask ID: ${spec.id}\n`);
    expect(text).toContain('\nExit code: 0\n');
    expect(text).toContain('<task-notification>\n');
    // The last 20 lines of output, not the 10 before them.
    expect(text).toContain('line 11\n');
    expect(text).not.toContain('line 10\n');
    expect(text).toContain('line 30\n</task-notification>\n</notification>');
    expect(text.endsWith('</notification>')).toBe(true);

    expect(await outbox.claimForLLM(4)).toEqual([]);

    const forWire = await wireSource.drainWire(8, new AbortController().signal);
    expect(forWire).toHaveLength(1);
    expect(forWire[0]).toMatchObject({
      category: 'task',
      type: 'task.completed',
      source_kind: 'background_task',
      source_id: spec.id,
      severity: 'success',
      title: 'Background task completed: print lines',
      payload: { task_id: spec.id, status: 'completed', exit_code: 0 },
    });
    expect(await outbox.drainWire(8)).toEqual([]);
  });

  it('types follow the outcome and respect the per-call maximum', async () => {
    const ok = await manager.startBash(bashTask('exit 0'));
    const bad = await manager.startBash(bashTask('exit 2'));
    const slow = await manager.startBash(bashTask('sleep 300'));
    await Promise.all([manager.wait(ok.spec.id, 10_000), manager.wait(bad.spec.id, 10_000)]);
    await manager.stop(slow.spec.id, 'enough');

    const firstTwo = await outbox.claimForLLM(2);
    const rest = await outbox.claimForLLM(2);
    expect([...firstTwo, ...rest].map((n) => n.type).sort()).toEqual([
      'task.completed',
      'task.failed',
      'task.killed',
    ]);
    expect(firstTwo).toHaveLength(2);
    expect(rest).toHaveLength(1);
  });

  it('cuts the quoted output to the configured characters', async () => {
    const small = await openSession(join(dir, 'other-session'), { notificationTailChars: 50 });
    try {
      const { spec } = await small.manager.startBash(bashTask("head -c 500 /dev/zero | tr '\\0' x"));
      await small.manager.wait(spec.id, 10_000);
      const [notification] = await small.outbox.claimForLLM(1);
      expect(notification?.text).toContain(`\n${'x'.repeat(50)}\n</task-notification>`);
      expect(notification?.text).not.toContain('x'.repeat(51));
    } finally {
      await small.manager.shutdown();
    }
  });

  it('are kept across a restart and not delivered twice', async () => {
    const { spec } = await manager.startBash(bashTask('exit 0'));
    await manager.wait(spec.id, 10_000);
    expect(await outbox.claimForLLM(4)).toHaveLength(1);
    await manager.shutdown();

    ({ manager, outbox } = await openSession(sessionDir));
    expect(await outbox.claimForLLM(4)).toEqual([]);
    const wire = await outbox.drainWire(8);
    expect(wire.map((n) => n.source_id)).toEqual([spec.id]);
    expect(manager.get(spec.id)?.runtime.status).toBe('completed');
  });
});

describe('a result WaitFor returned', () => {
  it('is not notified to the model again; front ends still hear of it', async () => {
    const { WaitFor } = await import('../tools/background/wait-for.js');
    const { callTool, outputText, planModeSwitch, toolsetWith } = await import(
      '../tools/background/test-support/task-harness.js'
    );
    const toolset = await toolsetWith([WaitFor], {
      backgroundTasks: manager,
      role: 'root',
      planMode: planModeSwitch(),
    });
    const other = await manager.startBash(bashTask('echo other'));
    await manager.wait(other.spec.id, 10_000);
    const { spec } = await manager.startBash(bashTask('echo waited'));
    const result = await callTool(toolset, 'WaitFor', { task_id: spec.id, timeout: 60 });
    expect(outputText(result)).toContain('waited');
    const forModel = await outbox.claimForLLM(10);
    expect(forModel.map((n) => n.text).join('\n')).toContain(other.spec.id);
    expect(forModel.map((n) => n.text).join('\n')).not.toContain(spec.id);
    expect(outbox.all().filter((n) => n.source_id === spec.id)).toHaveLength(1);
    expect((await outbox.drainWire(10)).map((n) => n.source_id)).toContain(spec.id);
  });
});
