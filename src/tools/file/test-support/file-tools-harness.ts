import { mkdir, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolReturnValue } from '../../../kosong/index.js';
import { Approval } from '../../../toolset/approval/approval.js';
import type {
  ApprovalResponseKind,
  PendingApprovalRecord,
} from '../../../toolset/approval/approval-runtime.js';
import { KimiToolset } from '../../../toolset/kimi-toolset.js';
import type { ToolDependencyTable } from '../../../toolset/loading/dependencies.js';
import { dispatchAll, toolCall } from '../../../toolset/test-support/dispatch.js';
import { testPolicy } from '../../../toolset/test-support/test-policy.js';
import type { PlanModeController, VideoUploader } from '../../runtime.js';

/** An in-memory plan mode, as the app's controller behaves for tools. */
export class TestPlanMode implements PlanModeController {
  active = false;
  constructor(readonly planFile: string) {}
  isActive(): boolean {
    return this.active;
  }
  planFilePath(): string | null {
    return this.active ? this.planFile : null;
  }
  async readPlan(): Promise<string | null> {
    return this.active ? readFile(this.planFile, 'utf8').catch(() => null) : null;
  }
  async enter(): Promise<string> {
    this.active = true;
    return this.planFile;
  }
  async exit(): Promise<void> {
    this.active = false;
  }
}

export const FILE_TOOL_SPECS = [
  'kimi-ts/tools/file/read-file:ReadFile',
  'kimi-ts/tools/file/read-media-file:ReadMediaFile',
  'kimi-ts/tools/file/glob:Glob',
  'kimi-ts/tools/file/grep:Grep',
  'kimi-ts/tools/file/write-file:WriteFile',
  'kimi-ts/tools/file/str-replace-file:StrReplaceFile',
] as const;

export interface HarnessOptions {
  /** How the user answers approval requests (default: approve). */
  answer?: ApprovalResponseKind | undefined;
  modelCapabilities?: readonly string[] | undefined;
  /** The video upload of the model's API (default: none, videos go inline). */
  uploadVideo?: VideoUploader | undefined;
  /** Which tools to load (default: all file tools). */
  specs?: readonly string[] | undefined;
}

/**
 * A real workspace in a temp dir (plus a second temp dir outside it), the file tools loaded by their
 * `module:Export` specs into a real KimiToolset, and an Approval whose requests are recorded and
 * answered as the options say.
 */
export class FileToolsHarness {
  readonly requests: PendingApprovalRecord[] = [];
  private nextId = 0;

  private constructor(
    readonly root: string,
    readonly workDir: string,
    readonly outsideDir: string,
    readonly toolset: KimiToolset,
    readonly approval: Approval,
    readonly planMode: TestPlanMode,
    /** Shared with the tools and the policy, as `/add-dir` shares the session's list. */
    readonly additionalDirs: string[],
  ) {}

  static async create(options: HarnessOptions = {}): Promise<FileToolsHarness> {
    const root = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-file-tools-')));
    const workDir = join(root, 'work');
    const outsideDir = join(root, 'outside');
    await mkdir(workDir);
    await mkdir(outsideDir);
    const approval = new Approval();
    const additionalDirs: string[] = [];
    const toolset = new KimiToolset({ policy: testPolicy({ workDir, additionalDirs, approval }), approval });
    const planMode = new TestPlanMode(join(root, 'plans', 'brave-swift-storm.md'));
    const harness = new FileToolsHarness(
      root,
      workDir,
      outsideDir,
      toolset,
      approval,
      planMode,
      additionalDirs,
    );
    const answer = options.answer ?? 'approve';
    approval.runtime.subscribe((event) => {
      if (event.type !== 'request_created') return;
      harness.requests.push(event.record);
      queueMicrotask(() => approval.runtime.resolve(event.record.id, { response: answer }));
    });
    const deps: ToolDependencyTable = {
      workDir,
      additionalDirs: harness.additionalDirs,
      planMode,
      modelCapabilities: new Set(options.modelCapabilities ?? []),
      uploadVideo: options.uploadVideo ?? null,
      descriptionVars: { KIMI_WORK_DIR: workDir },
    };
    await toolset.loadTools(options.specs ?? FILE_TOOL_SPECS, deps, { baseDir: workDir });
    return harness;
  }

  /** Runs one tool call through the toolset, as `step` would. */
  async call(name: string, args: Record<string, unknown>): Promise<ToolReturnValue> {
    const [result] = await dispatchAll(this.toolset, [toolCall(String(++this.nextId), name, args)]);
    return result!.return_value;
  }

  async dispose(): Promise<void> {
    await rm(this.root, { recursive: true, force: true });
  }
}

export function briefOf(value: ToolReturnValue): string | undefined {
  const block = value.display.find((item) => item.type === 'brief');
  return typeof block?.text === 'string' ? block.text : undefined;
}

export function outputText(value: ToolReturnValue): string {
  return typeof value.output === 'string'
    ? value.output
    : value.output.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('');
}
