import type { RunContext } from '../toolset/run-scope.js';
import type { EventPayloads } from '../wire/events.js';

/** How one run of a soul goes (see `Soul.run`). */
export interface RunOptions {
  /** Synthetic prompts (e.g. a background-task follow-up) skip the UserPromptSubmit hook. */
  skipUserPromptHook?: boolean | undefined;
  /**
   * The turn on `input` was started and its user message committed, then its process died (a fleet
   * worker killed mid-step): go on from the last committed step, without adding the prompt again.
   */
  resume?: boolean | undefined;
  /**
   * The turn is a scheduled prompt's fire: ScheduleFired goes out before TurnBegin (whose input is
   * the prompt), the model reads `modelInput` (the prompt in its `<cron-fire>` envelope), and the
   * prompt is never run as a slash command (a model-made schedule must not reach `/yolo`).
   */
  scheduled?: { modelInput: string; event: EventPayloads['ScheduleFired'] } | undefined;
  /**
   * How an active goal goes on after the turn: `loop` (default) runs its continuation turns inside
   * this run; `next-run` leaves them to later runs with `goalStep` (a fleet queues each as a job, so
   * a long goal holds a worker only while a step runs).
   */
  goalContinuation?: 'loop' | 'next-run' | undefined;
  /** This run is one continuation turn of the active goal (its reminder opens it), nothing else. */
  goalStep?: boolean | undefined;
  /**
   * The run's wire and approval source (runSoul's wire, the turn's or subagent run's source), entered
   * as the soul's run context for this run. Absent: those current in the caller (current-wire.ts).
   */
  context?: RunContext | undefined;
}
