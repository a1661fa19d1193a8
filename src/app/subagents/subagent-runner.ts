import type { SubagentRunner, SubagentToolResult, SwarmRunRequest } from '../../tools/runtime.js';
import { type WorktreeOutcome, WorktreeUnavailableError } from './agent-worktree.js';
import { startBackgroundRun } from './background-run.js';
import { type ForegroundResult, runForeground } from './foreground-run.js';
import { gitContext } from './git-context.js';
import type { SubagentRecord } from './instance-store.js';
import { closeIsolatedWorkspace, openIsolatedWorkspace, sessionWorktreesDir } from './isolated-workspace.js';
import type { PreparedRun, SubagentServices } from './run-instance.js';
import { launchFailure } from './subagent-failure.js';
import {
  notStarted,
  type SubagentRunOutcome,
  type WorktreeOwner,
  withWorktree,
} from './subagent-run-outcome.js';
import type { SwarmItemRan, SwarmItemRun, SwarmSlot } from './swarm-dispatch.js';
import { runSwarm } from './swarm-run.js';

type RunRequest = Parameters<SubagentRunner['run']>[0];
type SubagentRunResult = SubagentToolResult;

/** A request the runner refuses before starting anything. */
class RefusedRun extends Error {
  constructor(
    message: string,
    readonly brief: string,
  ) {
    super(message);
  }
}

function refusal(message: string, brief: string): SubagentRunResult {
  return { isError: true, output: '', message, brief };
}

/**
 * The Agent tool's runner for one session: validates a request (type, resume id, model), keeps
 * one run per instance at a time, and runs it in the foreground or as a background task.
 */
export class SessionSubagentRunner implements SubagentRunner {
  readonly types: SubagentRunner['types'];
  /** Instances with a run in progress in this process. */
  private readonly running = new Set<string>();

  constructor(
    private readonly services: SubagentServices,
    /** Where a fleet turn hands its swarms out, and where a fleet worker runs one item of one. */
    private readonly slot: SwarmSlot | null = null,
  ) {
    this.types = services.types.map(({ name, description, whenToUse }) => ({ name, description, whenToUse }));
    if (slot) slot.runItem = (run) => this.runItem(run);
  }

  async run(request: RunRequest): Promise<SubagentRunResult> {
    if (request.runInBackground) {
      if (request.isolation === 'worktree')
        return refusal(
          'isolation "worktree" runs in the foreground only (its branch and diff are part of the answer). Run it in the foreground, or use isolation "none".',
          'Invalid isolation',
        );
      let prepared: PreparedRun;
      try {
        prepared = await this.prepare(request);
      } catch (error) {
        if (error instanceof RefusedRun) return refusal(error.message, error.brief);
        throw error;
      }
      return startBackgroundRun(this.services, prepared, request, () =>
        this.running.delete(prepared.record.agent_id),
      );
    }
    const outcome = await this.runOne(request, null);
    return withWorktree(outcome);
  }

  runSwarm(request: SwarmRunRequest): Promise<SubagentRunResult> {
    return runSwarm(
      (run, owner) => this.runOne(run, owner),
      this.services,
      request,
      this.slot?.dispatch ?? null,
    );
  }

  /**
   * One item of a swarm dispatched from another worker's turn: run as the local swarm runs each
   * item, and not started once the goal's budget is spent (as the local swarm starts none then).
   */
  private async runItem(run: SwarmItemRun): Promise<SwarmItemRan> {
    const spent = this.services.rootDeps.goalBudget?.budgetReached(true) ?? null;
    if (spent !== null) return { notStarted: `Not started: the goal's budget is spent (${spent})` };
    return this.runOne(
      {
        description: run.description,
        prompt: run.prompt,
        subagentType: run.subagentType,
        model: run.model,
        resume: null,
        runInBackground: false,
        timeoutS: null,
        parentToolCallId: run.parentToolCallId,
        signal: run.signal,
        isolation: run.isolation,
        parentRun: run.parentRun,
      },
      { id: run.branchOwner, index: run.index },
    ).finally(() => this.services.approval.endSwarm(run.swarmId));
  }

  /**
   * One foreground run, in a worktree of its own when isolation asks (on the branch of `owner`, the
   * swarm and item, else of the agent itself). The worktree is committed and removed before the
   * outcome is known, a cancel included: the cancel is rethrown once nothing is left behind.
   */
  async runOne(request: RunRequest, owner: WorktreeOwner | null): Promise<SubagentRunOutcome> {
    let prepared: PreparedRun;
    try {
      prepared = await this.prepare(request);
    } catch (error) {
      if (error instanceof RefusedRun) return notStarted(refusal(error.message, error.brief));
      throw error;
    }
    const agentId = prepared.record.agent_id;
    try {
      if (request.isolation === 'worktree') {
        try {
          prepared.workspace = await openIsolatedWorkspace({
            workDir: this.services.session.workDir,
            worktreesDir: sessionWorktreesDir(this.services.policy.homes.kimiHome, this.services.session.id),
            ownerId: owner?.id ?? agentId,
            index: owner?.index ?? 1,
            policy: this.services.policy,
            commandSandbox: this.services.rootDeps.commandSandbox ?? null,
            signal: request.signal,
          });
        } catch (error) {
          if (prepared.fresh) await this.services.store.remove(agentId);
          if (request.signal.aborted) throw request.signal.reason;
          const message =
            error instanceof WorktreeUnavailableError ? error.message : launchFailure(error).message;
          return notStarted(refusal(message, 'Worktree unavailable'));
        }
      }
      let result: ForegroundResult | null = null;
      let thrown: { error: unknown } | null = null;
      try {
        result = await runForeground(this.services, prepared, request, owner?.id ?? null);
      } catch (error) {
        thrown = { error };
      }
      let worktree: WorktreeOutcome | null = null;
      let worktreeError: string | null = null;
      if (prepared.workspace) {
        try {
          worktree = await closeIsolatedWorkspace(
            prepared.workspace,
            `kimi-ts ${agentId}: ${request.description}`,
          );
        } catch (error) {
          worktreeError = error instanceof Error ? error.message : String(error);
        }
      }
      if (thrown) throw thrown.error;
      const done = result as ForegroundResult;
      const { report, ...toolResult } = done;
      return {
        agentId,
        status: done.isError ? 'failed' : 'completed',
        answer: report,
        result: toolResult,
        isolated: prepared.workspace !== undefined,
        branch: worktree?.branch ?? null,
        diffStat: worktree?.diffStat ?? '',
        worktreeError,
      };
    } finally {
      this.running.delete(agentId);
    }
  }

  private async prepare(request: RunRequest): Promise<PreparedRun> {
    const { services } = this;
    let record: SubagentRecord | null = null;
    let requestedType: string | null = null;
    if (request.resume !== null) {
      record = await services.store.read(request.resume);
      if (!record) throw new RefusedRun(`Agent instance not found: ${request.resume}`, 'Agent not found');
      if (request.subagentType !== record.subagent_type) requestedType = request.subagentType;
    }
    const typeName = record?.subagent_type ?? request.subagentType;
    const type = services.types.find((candidate) => candidate.name === typeName);
    if (!type) {
      const known = services.types.map((t) => t.name).join(', ') || 'none';
      throw new RefusedRun(
        `Builtin subagent type not found: ${typeName} (available: ${known}).`,
        'Invalid subagent type',
      );
    }
    const alias = request.model ?? record?.launch_spec.model_override ?? type.spec.model;
    let llm = services.currentLLM();
    if (alias !== null) {
      if (!Object.hasOwn(services.config.models, alias))
        throw new RefusedRun(`Unknown model alias: ${alias}`, 'Invalid model alias');
      llm = await services.llmForAlias(alias);
      if (!llm)
        throw new RefusedRun(`Failed to run agent: the model "${alias}" is not usable.`, 'Agent failed');
    }
    // Checked and claimed with no await in between, so two requests cannot both take an instance.
    if (record) {
      if (this.running.has(record.agent_id))
        throw new RefusedRun(
          `Agent instance ${record.agent_id} is still ${record.status === 'idle' ? 'running' : record.status} and cannot be resumed concurrently.`,
          'Agent already running',
        );
      this.running.add(record.agent_id);
      return {
        record,
        fresh: false,
        type,
        llm,
        requestedType,
        description: request.description,
        prompt: request.prompt,
      };
    }
    // A new explorer starts knowing the state of the repository.
    const gitAllowed = services.workspaceTrusted?.() === true;
    const context =
      type.name === 'explore' && gitAllowed
        ? await gitContext(services.session.workDir, services.rootDeps.processEnv ?? {})
        : null;
    const created = await services.store.create({
      subagentType: type.name,
      description: request.description,
      modelOverride: request.model,
      effectiveModel: alias ?? llm?.provider.modelName ?? null,
    });
    this.running.add(created.agent_id);
    return {
      record: created,
      fresh: true,
      type,
      llm,
      requestedType: null,
      description: request.description,
      prompt: context ? `${context}\n\n${request.prompt}` : request.prompt,
    };
  }
}
