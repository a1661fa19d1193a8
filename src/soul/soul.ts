import { isAbortError } from '../kosong/errors.js';
import { type ContentPart, extractText } from '../kosong/message.js';
import type { GoalBook } from '../tools/goal/goal-book.js';
import { GOAL_TOOL_NAMES } from '../tools/goal/goal-tools.js';
import { type RunContext, RunScope } from '../toolset/run-scope.js';
import { systemText } from '../toolset/tool-result-message.js';
import { wireEvent } from '../wire/events.js';
import type { WireMessage } from '../wire/message.js';
import { missingCapabilities } from './capabilities.js';
import { compactContext } from './compact-context.js';
import { shouldAutoCompact } from './compaction.js';
import { LLMNotSet, LLMNotSupported, MaxStepsReached } from './errors.js';
import {
  driveGoal,
  type GoalTurnProgress,
  type GoalTurnRunner,
  parkGoal,
  runGoalStep,
} from './goal/goal-steps.js';
import { EmptyPromptError, isEmptyPrompt, slashCommandText, unknownCommandText } from './prompt-checks.js';
import { runRalphLoop } from './ralph-loop.js';
import type { RunOptions } from './run-options.js';
import { parseSlashCommand } from './slash-command-parser.js';
import type { SlashCommandLookup } from './slash-command-types.js';
import type { SoulLLM, SoulParts } from './soul-parts.js';
import { BackToTheFuture, runStep } from './soul-step.js';
import { SteerQueue, type UserInput } from './steer-queue.js';
import type { StepOutcome, TurnOutcome } from './turn-outcome.js';
import type { WorkTreeCheckpoints } from './work-tree-checkpoints.js';

export type { RunOptions } from './run-options.js';

export interface SoulOptions extends Omit<SoulParts, 'lastToolCalls' | 'runScope'> {
  /** The session's goal (root soul only): its continuation turns run at the end of each turn. */
  goal?: GoalBook | undefined;
  /** Shown when a turn needs a model and none is configured. */
  llmNotSetMessage?: string | undefined;
  slashCommands?: SlashCommandLookup<Soul> | undefined;
  /** Whether the agent can send D-Mail: then each checkpoint is also shown to the model. */
  hasDMailTool?: boolean | undefined;
  /** Awaited before the first step of a turn (e.g. MCP servers still connecting). */
  beforeFirstStep?: ((signal: AbortSignal, run: RunContext) => Promise<void>) | undefined;
  /** Sets the session title from the first prompt when the session has none. */
  autoTitle?: ((userText: string) => Promise<void>) | undefined;
  /** Records the files before each turn and step, for `/rewind` (root soul only). */
  workTree?: WorkTreeCheckpoints | undefined;
}

const TITLE_WIDTH = 50;

/**
 * The agent loop (seed 002 §4): `run` is a turn's shell (hooks, TurnBegin/TurnEnd, slash commands),
 * `turn` prepares the context, `agentLoop` counts steps, `runStep` does one model call with its tools.
 */
export class Soul {
  readonly parts: SoulParts;
  private readonly steers = new SteerQueue();
  private stopHookActive = false;
  private titled = false;
  /** Set while a goal's continuation turn runs: its steps count against the goal. */
  private goalTurn: { progressed: boolean } | null = null;

  /** Uses `llm` from the next model call on (a model switch between turns, or by `/model`). */
  switchLLM(llm: SoulLLM): void {
    this.parts.llm = llm;
  }

  constructor(readonly options: SoulOptions) {
    const { goal } = options;
    this.parts = {
      ...options,
      lastToolCalls: [],
      runScope: options.toolset.runScope ?? new RunScope(),
      // A subagent has no goal of its own: its tokens go to the goal of the tree it runs in.
      onStepTokens: goal ? (tokens) => goal.addTokens(tokens) : options.onStepTokens,
    };
  }

  get context(): SoulParts['context'] {
    return this.parts.context;
  }

  /** Queues input for the running turn; it enters the context after the current step. */
  steer(input: UserInput): void {
    this.steers.push(input);
  }

  /** Sends a message on the wire of the soul's run (`options.context` of `run`). */
  readonly send = (message: WireMessage): void => this.parts.runScope.send(message);

  async run(input: UserInput, signal: AbortSignal, options: RunOptions = {}): Promise<TurnOutcome> {
    if (isEmptyPrompt(input)) throw new EmptyPromptError();
    const leave = options.context && this.parts.runScope.enter(options.context);
    try {
      return await this.runIn(input, signal, options);
    } finally {
      leave?.();
    }
  }

  private async runIn(input: UserInput, signal: AbortSignal, options: RunOptions): Promise<TurnOutcome> {
    const { hooks } = this.parts;
    const text = typeof input === 'string' ? input : extractText({ content: input }, '\n');
    if (!options.skipUserPromptHook && hooks.hasHooksFor('UserPromptSubmit')) {
      const decision = await hooks.trigger('UserPromptSubmit', {
        target: typeof input === 'string' ? input : '',
        input: { prompt: text },
        signal,
        report: this.parts.runScope.reporter(),
      });
      if (decision.action === 'block')
        return this.blockedTurn(input, decision.reason || 'Prompt blocked by hook.');
    }

    const { scheduled } = options;
    const slash =
      scheduled || options.resume || options.goalStep ? null : parseSlashCommand(slashCommandText(input));
    const command = slash ? this.options.slashCommands?.find(slash.name) : undefined;
    // An unknown `/name` is answered here: sent on, it would become a turn of the model.
    if (slash && !command && this.options.slashCommands)
      return this.blockedTurn(input, unknownCommandText(slash.name));

    if (scheduled) this.send(wireEvent('ScheduleFired', scheduled.event));
    this.send(wireEvent('TurnBegin', { user_input: input }));
    let outcome: TurnOutcome;
    try {
      const loopGoal = options.goalContinuation !== 'next-run';
      outcome = options.goalStep
        ? await this.goalStep(signal)
        : options.resume
          ? await this.driveGoal(await this.resumeTurn(signal), signal, loopGoal)
          : await this.turnBody(
              scheduled ? scheduled.modelInput : input,
              text,
              slash,
              command,
              signal,
              loopGoal,
            );
    } catch (error) {
      parkGoal(this.options.goal, error, signal);
      throw error;
    } finally {
      // TurnBegin and TurnEnd stay balanced on error and cancel too.
      this.send(wireEvent('TurnEnd', {}));
    }
    if (!command || !('run' in command)) await this.maybeAutoTitle(text);
    return outcome;
  }

  /** What runs between TurnBegin and TurnEnd: a command, or the model's turn; then the goal's turns. */
  private async turnBody(
    input: UserInput,
    text: string,
    slash: ReturnType<typeof parseSlashCommand>,
    command: ReturnType<SlashCommandLookup<Soul>['find']>,
    signal: AbortSignal,
    loopGoal: boolean,
  ): Promise<TurnOutcome> {
    let outcome: TurnOutcome;
    if (slash && command && 'run' in command) {
      await command.run({ soul: this, args: slash.args, signal });
      outcome = { stopReason: 'no_tool_calls', finalMessage: null, stepCount: 0 };
    } else {
      const prompt =
        slash && command && 'expand' in command
          ? await command.expand({ soul: this, args: slash.args, signal })
          : input;
      const ralphRuns = slash && command ? 0 : (this.parts.loopControl.maxRalphIterations ?? 0);
      const { workTree } = this.options;
      // The next context checkpoint (the one `turn` makes first) marks where this turn starts.
      workTree?.beginTurn({
        prompt: text,
        contextText: typeof prompt === 'string' ? prompt : extractText({ content: prompt }, '\n'),
        contextCheckpoint: this.context.checkpointCount,
      });
      try {
        outcome =
          ralphRuns !== 0
            ? await runRalphLoop(prompt, ralphRuns, (next) => this.turn(next, signal), this.send)
            : await this.turn(prompt, signal);
        outcome = await this.runStopHook(outcome, signal);
      } finally {
        await workTree?.endTurn();
      }
    }
    return this.driveGoal(outcome, signal, loopGoal);
  }

  /** The goal's continuation turns after `outcome` (`loop`: all of them, here). */
  private driveGoal(outcome: TurnOutcome, signal: AbortSignal, loop: boolean): Promise<TurnOutcome> {
    return loop
      ? driveGoal(this.options.goal, outcome, (progress) => this.goalTurnOf(progress, signal))
      : Promise.resolve(outcome);
  }

  private goalStep(signal: AbortSignal): Promise<TurnOutcome> {
    return runGoalStep(this.options.goal, (progress) => this.goalTurnOf(progress, signal));
  }

  /** One goal turn on the reminder `prompt`; its steps report their progress to `progress`. */
  private goalTurnOf(progress: GoalTurnProgress, signal: AbortSignal): GoalTurnRunner {
    return async (prompt) => {
      this.goalTurn = progress;
      try {
        return await this.turn(prompt, signal);
      } finally {
        this.goalTurn = null;
      }
    };
  }

  /** Compacts the context now (`/compact`); false when there was nothing to compact. */
  compact(signal: AbortSignal, customInstruction = ''): Promise<boolean> {
    return compactContext(
      this.parts,
      customInstruction ? 'manual-with-prompt' : 'manual',
      signal,
      customInstruction,
      () => this.checkpoint(),
    );
  }

  private blockedTurn(input: UserInput, reason: string): TurnOutcome {
    this.send(wireEvent('TurnBegin', { user_input: input }));
    this.send(wireEvent('ContentPart', { type: 'text', text: reason }));
    this.send(wireEvent('TurnEnd', {}));
    return {
      stopReason: 'no_tool_calls',
      finalMessage: { role: 'assistant', content: [{ type: 'text', text: reason }] },
      stepCount: 0,
    };
  }

  /** Seed 002 §4.1: a Stop hook that blocks with a reason gets one more turn, never two. */
  private async runStopHook(outcome: TurnOutcome, signal: AbortSignal): Promise<TurnOutcome> {
    const { hooks } = this.parts;
    if (this.stopHookActive || !hooks.hasHooksFor('Stop')) return outcome;
    const decision = await hooks.trigger('Stop', {
      target: '',
      input: { stop_hook_active: false },
      signal,
      report: this.parts.runScope.reporter(),
    });
    if (decision.action !== 'block' || !decision.reason.trim()) return outcome;
    this.stopHookActive = true;
    try {
      return await this.turn(decision.reason, signal);
    } finally {
      this.stopHookActive = false;
    }
  }

  private async maybeAutoTitle(text: string): Promise<void> {
    if (this.titled || !this.options.autoTitle || !text.trim()) return;
    this.titled = true;
    await this.options.autoTitle(shortenTitle(text, TITLE_WIDTH));
  }

  /**
   * One turn on `input` without its shell (no hooks, no TurnBegin/TurnEnd): for commands that prompt
   * the model (`/init`) and for flows (`/flow:<name>`), which run their nodes as turns inside the turn
   * that started them and send those events themselves.
   */
  runAgentTurn(input: UserInput, signal: AbortSignal): Promise<TurnOutcome> {
    return this.turn(input, signal);
  }

  private async turn(input: UserInput, signal: AbortSignal): Promise<TurnOutcome> {
    const { llm, context } = this.parts;
    if (!llm) throw new LLMNotSet(this.options.llmNotSetMessage ?? 'No model is configured.');
    const content = toContent(input);
    const missing = missingCapabilities(content, llm.capabilities);
    if (missing.length > 0) throw new LLMNotSupported(llm.provider.modelName, missing);
    this.parts.lastToolCalls = [];
    await this.checkpoint();
    await context.appendMessages({ role: 'user', content });
    return this.agentLoop(signal);
  }

  /** A turn whose user message is already in the context, from its last committed step on. */
  private async resumeTurn(signal: AbortSignal): Promise<TurnOutcome> {
    if (!this.parts.llm) throw new LLMNotSet(this.options.llmNotSetMessage ?? 'No model is configured.');
    this.parts.lastToolCalls = [];
    return this.agentLoop(signal);
  }

  private async agentLoop(signal: AbortSignal): Promise<TurnOutcome> {
    const { context, loopControl, hooks, llm } = this.parts;
    // 1. Turn init: steers left over from an earlier turn are stale; wait for tools still loading.
    this.steers.drain();
    await this.options.beforeFirstStep?.(signal, this.parts.runScope.current());

    for (let stepNo = 1; ; stepNo++) {
      // 2a. Step guard.
      if (stepNo > loopControl.maxStepsPerTurn) throw new MaxStepsReached(loopControl.maxStepsPerTurn);
      // 2b.
      this.send(wireEvent('StepBegin', { n: stepNo }));
      // 2c. Compaction before the call, when the context is near its limit.
      if (
        llm &&
        shouldAutoCompact(
          context.tokenCount,
          llm.maxContextSize,
          loopControl.compactionTriggerRatio,
          loopControl.reservedContextSize,
        )
      ) {
        await compactContext(this.parts, 'auto', signal, '', () => this.checkpoint());
      }
      // 2d. A point to return to (the files too, in the background: tools that change them wait).
      await this.checkpoint();
      if (stepNo > 1) this.options.workTree?.beginStep(stepNo);
      // 2e/2f. The step; a D-Mail is a signal, anything else ends the turn.
      let outcome: StepOutcome | null = null;
      let dmail: BackToTheFuture | null = null;
      try {
        outcome = await runStep(this.parts, stepNo, signal);
      } catch (error) {
        if (error instanceof BackToTheFuture) dmail = error;
        else {
          if (!signal.aborted && !isAbortError(error)) {
            this.send(wireEvent('StepInterrupted', {}));
            const name = error instanceof Error ? error.name : 'Error';
            hooks.fire('StopFailure', {
              target: name,
              input: {
                error_type: name,
                error_message: error instanceof Error ? error.message : String(error),
              },
              report: this.parts.runScope.reporter(),
            });
          }
          throw error;
        }
      }
      if (this.goalTurn) {
        // Progress is a tool result (besides the goal tools') this goal has not seen before.
        const results = this.parts.lastToolCalls
          .filter((call) => !(GOAL_TOOL_NAMES as readonly string[]).includes(call.toolName))
          .map((call) => `${call.callKey}\u0000${call.resultId ?? ''}`);
        if (this.options.goal?.noteResults(results)) this.goalTurn.progressed = true;
        // A budget spent by this step ends the turn here, not after however many more steps.
        if (!outcome && this.options.goal?.enforceBudget(true))
          return { stopReason: 'no_tool_calls', finalMessage: null, stepCount: stepNo };
      }
      // 2g. Outcome: a steer turns a stop into another step.
      if (outcome) {
        if (await this.consumeSteers()) continue;
        return { ...outcome, stepCount: stepNo };
      }
      if (dmail) await this.travelBack(dmail);
      await this.consumeSteers();
    }
  }

  private async travelBack(dmail: BackToTheFuture): Promise<void> {
    const { context } = this.parts;
    await context.revertTo(dmail.checkpointId);
    this.parts.lastToolCalls = [];
    await this.checkpoint();
    const text = systemText(
      'A D-Mail from your future self has arrived: you already went down this path and reverted the ' +
        'conversation to here. Files on disk were NOT reverted. Use what it says; never mention the ' +
        `D-Mail to the user. Its content:\n\n${dmail.dmailMessage}`,
    );
    await context.appendMessages({ role: 'user', content: [{ type: 'text', text }] });
  }

  /** Appends every queued steer as a user message (then tells the wire); true if there was any. */
  private async consumeSteers(): Promise<boolean> {
    const pending = this.steers.drain();
    for (const input of pending) {
      await this.parts.context.appendMessages({ role: 'user', content: toContent(input) });
      this.send(wireEvent('SteerInput', { user_input: input }));
    }
    return pending.length > 0;
  }

  private async checkpoint(): Promise<void> {
    const { context, denwaRenji } = this.parts;
    await context.checkpoint({ withUserMessage: this.options.hasDMailTool === true });
    denwaRenji.setCheckpointCount(context.checkpointCount);
  }
}

function toContent(input: UserInput): ContentPart[] {
  return typeof input === 'string' ? [{ type: 'text', text: input }] : [...input];
}

/** Shortens at a word boundary where possible, counting characters, not UTF-16 units. */
export function shortenTitle(text: string, width: number): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  const chars = [...oneLine];
  if (chars.length <= width) return oneLine;
  const cut = chars.slice(0, width - 3).join('');
  const space = cut.lastIndexOf(' ');
  return `${space > width / 2 ? cut.slice(0, space) : cut}...`;
}
