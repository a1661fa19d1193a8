import { watch } from 'node:fs';
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { ToolDispatch, ToolResult } from '../../../kosong/index.js';
import { Approval } from '../../../toolset/approval/approval.js';
import type {
  ApprovalDecisionInput,
  ApprovalRuntime,
  PendingApprovalRecord,
} from '../../../toolset/approval/approval-runtime.js';
import { KimiToolset } from '../../../toolset/kimi-toolset.js';
import type {
  ToolDependencyMap,
  ToolDependencyName,
  ToolFactory,
} from '../../../toolset/loading/dependencies.js';
import { toolKit } from '../../../toolset/loading/dependencies.js';
import { cleanDispatch, dispatchAll, toolCall } from '../../../toolset/test-support/dispatch.js';
import { testPolicy } from '../../../toolset/test-support/test-policy.js';
import type { BackgroundConfig, PlanModeController } from '../../runtime.js';
import { BackgroundTaskManager } from '../background-task-manager.js';
import type { TaskNotificationDraft, TaskNotificationSink } from '../task-notification.js';

/** A temp folder standing in for a session folder (and a work dir inside it). */
export async function makeTempDir(prefix = 'kimi-ts-bg-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** Keeps what the manager publishes (the session's outbox delivers it; see src/session). */
export class PublishedNotifications implements TaskNotificationSink {
  readonly drafts: TaskNotificationDraft[] = [];

  async publish(draft: TaskNotificationDraft): Promise<void> {
    this.drafts.push(draft);
  }

  async flush(): Promise<void> {}
}

export function openManager(
  sessionDir: string,
  config: Partial<BackgroundConfig> = {},
  errors: unknown[] = [],
  notifications: TaskNotificationSink = new PublishedNotifications(),
): Promise<BackgroundTaskManager> {
  return BackgroundTaskManager.open({
    sessionDir,
    notifications,
    // Short grace: the processes in these tests end on SIGTERM unless a test says otherwise.
    config: { killGracePeriodMs: 500, ...config },
    onError: (error) => errors.push(error),
  });
}

/** A plan-mode switch the tests flip by hand. */
export function planModeSwitch(active = false): PlanModeController & { active: boolean } {
  return {
    active,
    isActive() {
      return this.active;
    },
    planFilePath() {
      return this.active ? '/tmp/plan.md' : null;
    },
    async readPlan() {
      return null;
    },
    async enter() {
      this.active = true;
      return '/tmp/plan.md';
    },
    async exit() {
      this.active = false;
    },
  };
}

export type Deps = Partial<ToolDependencyMap>;

/** A real toolset with the given tools created from `deps`; yolo approval unless one is given. */
export async function toolsetWith(
  factories: ToolFactory[],
  deps: Deps,
  approval: Approval = new Approval({ state: { yolo: true } }),
): Promise<KimiToolset> {
  const toolset = new KimiToolset({
    policy: testPolicy({ workDir: deps.workDir ?? process.cwd(), approval }),
    approval,
  });
  const table = { descriptionVars: {}, approval, toolset, ...deps } as Record<string, unknown>;
  for (const factory of factories) {
    const picked: Record<string, unknown> = {};
    for (const name of factory.dependencies as readonly ToolDependencyName[]) {
      if (!(name in table)) throw new Error(`test setup misses dependency ${name}`);
      picked[name] = table[name];
    }
    toolset.add(await factory.create(picked as never, toolKit));
  }
  return toolset;
}

let callCounter = 0;

/** Calls one tool through the toolset, as a step would. */
export async function callTool(
  toolset: KimiToolset,
  name: string,
  args: unknown,
  dispatch: ToolDispatch = cleanDispatch(),
): Promise<ToolResult> {
  callCounter++;
  const [result] = await dispatchAll(toolset, [toolCall(`call-${callCounter}`, name, args)], dispatch);
  return result!;
}

export function outputText(result: ToolResult): string {
  const { output } = result.return_value;
  return typeof output === 'string'
    ? output
    : output.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

export function briefOf(result: ToolResult): string | undefined {
  const block = result.return_value.display.find((b) => b.type === 'brief');
  return block ? String(block.text) : undefined;
}

/** Answers every approval request with `decision`, recording what was asked. */
export function answerApprovals(
  runtime: ApprovalRuntime,
  decision: ApprovalDecisionInput,
): PendingApprovalRecord[] {
  const asked: PendingApprovalRecord[] = [];
  runtime.subscribe((event) => {
    if (event.type !== 'request_created') return;
    asked.push(event.record);
    queueMicrotask(() => runtime.resolve(event.record.id, decision));
  });
  return asked;
}

/** Resolves once `path` exists, watching its folder (no polling). */
export async function waitForFile(path: string, signal?: AbortSignal): Promise<void> {
  const exists = () =>
    access(path).then(
      () => true,
      () => false,
    );
  const watcher = watch(dirname(path), { signal });
  try {
    const appeared = new Promise<void>((resolve, reject) => {
      watcher.on('change', (_event, name) => {
        if (name === null || String(name) === basename(path)) {
          void exists().then((yes) => yes && resolve());
        }
      });
      watcher.on('error', reject);
    });
    if (await exists()) return;
    await appeared;
  } finally {
    watcher.close();
  }
}

/** Reads whitespace-separated pids a command wrote to a file. */
export async function readPids(path: string): Promise<number[]> {
  return (await readFile(path, 'utf8'))
    .split(/\s+/)
    .filter((word) => /^\d+$/.test(word))
    .map(Number);
}
