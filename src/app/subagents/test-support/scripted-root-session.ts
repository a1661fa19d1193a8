import { mkdir, mkdtemp, readdir, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScriptedProvider } from '../../../kosong/providers/scripted/index.js';
import type { UILoop } from '../../../soul/run-soul.js';
import type { TurnOutcome } from '../../../soul/turn-outcome.js';
import type { ToolDependencyTable } from '../../../toolset/loading/dependencies.js';
import type { WireMessage } from '../../../wire/message.js';
import { ApprovalRequest } from '../../../wire/requests.js';
import type { AgentSessionImpl } from '../../agent-session-impl.js';
import { createAgentSession } from '../../create-agent-session.js';
import { defaultExtensions } from '../../default-extensions.js';
import { defineExtension, type SessionServices } from '../../extension.js';
import type { SubagentRecord } from '../instance-store.js';

/** A scripted step that calls one tool. */
export function callTool(id: string, name: string, args: Record<string, unknown>): string {
  return `tool_call: ${JSON.stringify({ id, name, arguments: JSON.stringify(args) })}`;
}

/** A scripted step that answers with text (one line). */
export function say(text: string): string {
  return `text: ${text}`;
}

/** A text long enough to pass as a subagent's report without a continuation turn. */
export function longReport(topic: string): string {
  return `Report on ${topic}: ${'I looked at every relevant place and checked the details carefully. '.repeat(4)}Done.`;
}

export type ApprovalAnswer = 'approve' | 'reject';

export interface ScriptedSessionOptions {
  /** Scripts of the default model (shared by the root and subagents without their own model). */
  scripts: string[];
  /** More `[models.ALIAS]` tables, each with its own scripted provider. */
  models?: Record<string, string[]> | undefined;
  yolo?: boolean | undefined;
  maxStepsPerTurn?: number | undefined;
  /** An agent spec to use instead of the default one. */
  agentFile?: ((workDir: string) => Promise<string>) | undefined;
  /** Capabilities of the default model (`image_in`, ...). */
  capabilities?: string[] | undefined;
  /** More top-level config keys (hooks, background, ...). */
  config?: Record<string, unknown> | undefined;
  /** `--trust-workspace`. */
  trustWorkspace?: boolean | undefined;
}

export interface TurnOptions {
  answer?: ((request: ApprovalRequest) => ApprovalAnswer) | undefined;
  /** Sees every merged root-wire message as it arrives (e.g. to cancel at a given point). */
  onMessage?: ((message: WireMessage) => void) | undefined;
  cancel?: AbortSignal | undefined;
}

export interface TurnRecord {
  outcome: TurnOutcome;
  /** Merged messages of the root wire. */
  seen: WireMessage[];
  approvals: ApprovalRequest[];
}

/** What the test reads of the session's services. */
type CapturedServices = Pick<SessionServices, 'rootDeps' | 'model'>;

/** A real root session (default agent spec and extensions) whose model is the scripted provider. */
export class ScriptedSession {
  private constructor(
    readonly root: string,
    readonly workDir: string,
    readonly session: AgentSessionImpl,
    private readonly extension: CapturedServices,
  ) {}

  static async open(options: ScriptedSessionOptions): Promise<ScriptedSession> {
    const root = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-subagents-')));
    const workDir = join(root, 'work');
    const home = join(root, 'home');
    await mkdir(workDir);
    await mkdir(home);
    const provider = (scripts: string[]) => ({
      type: '_scripted_echo',
      env: { KIMI_TS_SCRIPTS: JSON.stringify(scripts) },
    });
    const model = (name: string) => ({ provider: name, model: name, max_context_size: 100_000 });
    const config = {
      ...options.config,
      default_model: 'main',
      providers: {
        main: provider(options.scripts),
        ...Object.fromEntries(Object.entries(options.models ?? {}).map(([n, s]) => [n, provider(s)])),
      },
      models: {
        main: { ...model('main'), capabilities: options.capabilities ?? [] },
        ...Object.fromEntries(Object.keys(options.models ?? {}).map((n) => [n, model(n)])),
      },
    };
    let captured: CapturedServices | null = null;
    const session = await createAgentSession({
      workDir,
      home,
      env: { HOME: home, PATH: process.env.PATH },
      inlineConfig: JSON.stringify(config),
      yolo: options.yolo,
      trustWorkspace: options.trustWorkspace,
      maxStepsPerTurn: options.maxStepsPerTurn,
      agentFile: options.agentFile ? await options.agentFile(workDir) : undefined,
      extensions: [
        ...defaultExtensions({ home, addDirs: [] }),
        defineExtension({
          name: 'test-capture',
          uses: ['rootDeps', 'model'],
          async setup(services) {
            captured = services;
            return {};
          },
        }),
      ],
    });
    if (!captured) throw new Error('the capture extension did not run');
    return new ScriptedSession(root, workDir, session, captured);
  }

  /** The root dependency table (with `subagents`, `backgroundTasks`, ...). */
  get deps(): ToolDependencyTable {
    return this.extension.rootDeps;
  }

  /** The root model's provider (its queue is shared with subagents that use the same model). */
  get provider(): ScriptedProvider {
    return this.extension.model.llm?.provider as ScriptedProvider;
  }

  get sessionDir(): string {
    return this.session.parts.session.dir;
  }

  /** Runs one root turn with a front end that records the root wire and answers approvals. */
  async runTurn(prompt: string, options: TurnOptions = {}): Promise<TurnRecord> {
    const answer = options.answer ?? (() => 'approve');
    const seen: WireMessage[] = [];
    const approvals: ApprovalRequest[] = [];
    const ui: UILoop = async (wire) => {
      for await (const message of wire.subscribe({ merge: true })) {
        seen.push(message);
        options.onMessage?.(message);
        if (message instanceof ApprovalRequest) {
          approvals.push(message);
          message.resolve(answer(message));
        }
      }
    };
    const outcome = await this.session.runTurn(prompt, ui, options.cancel ?? new AbortController().signal);
    return { outcome, seen, approvals };
  }

  async subagentIds(): Promise<string[]> {
    try {
      return (await readdir(join(this.sessionDir, 'subagents'))).sort();
    } catch {
      return [];
    }
  }

  subagentFile(agentId: string, name: string): string {
    return join(this.sessionDir, 'subagents', agentId, name);
  }

  async meta(agentId: string): Promise<SubagentRecord> {
    return JSON.parse(await readFile(this.subagentFile(agentId, 'meta.json'), 'utf8')) as SubagentRecord;
  }

  /** The JSON lines of a subagent file (context.jsonl, wire.jsonl). */
  async jsonLines(agentId: string, name: string): Promise<Record<string, unknown>[]> {
    const text = await readFile(this.subagentFile(agentId, name), 'utf8');
    return text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  async close(): Promise<void> {
    await this.session.close();
    await rm(this.root, { recursive: true, force: true });
  }
}

/** The text of a tool result's output in the root wire, by tool call id. */
export function toolResultOf(
  seen: readonly WireMessage[],
  toolCallId: string,
): { is_error: boolean; output: string; message: string } {
  for (const message of seen) {
    if (message.type !== 'ToolResult' || message.payload.tool_call_id !== toolCallId) continue;
    const value = message.payload.return_value;
    const output =
      typeof value.output === 'string'
        ? value.output
        : value.output.map((part) => (part.type === 'text' ? part.text : '')).join('');
    return { is_error: value.is_error, output, message: value.message };
  }
  throw new Error(`no ToolResult for ${toolCallId} on the wire`);
}
