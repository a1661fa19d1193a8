import { describeTurnError, LLMNotSet, RunCancelled } from '../../soul/errors.js';
import { deferred } from '../../util/deferred.js';
import type { TerminalSafe } from '../../util/sanitize-terminal.js';
import { errorNote, noModelNote } from './transcript-notes.js';
import type { TuiStyle } from './tui-style.js';
import type { TurnView } from './turn-view.js';

/** Spinner and panel hints move at this pace while a job runs. */
const TICK_MS = 80;

/** A job the TUI runs, a turn or a `!command`, with its own view in the transcript. */
export interface RunningJob {
  readonly view: TurnView;
  readonly cancel: AbortController;
  /** Settles once the job wound down (after a cancel too). */
  readonly done: Promise<void>;
}

/** What a job does, given its view and its cancel signal. */
export type JobWork = (view: TurnView, signal: AbortSignal) => Promise<void>;

/** What the TUI is doing: waiting for a prompt, or running one job (with its ticker). */
type JobState = { type: 'idle' } | { type: 'running'; job: RunningJob; ticker: NodeJS.Timeout };

/** What a job's life touches in the TUI. */
export interface JobRunnerHost {
  style: TuiStyle;
  /** A new view for the job; the host shows it in the transcript. */
  startView(): TurnView;
  /** Every tick while the job runs (spinner, panels answered elsewhere). */
  tick(): void;
  /** The job ended (ran out, failed or was cancelled); the runner is idle again. */
  ended(): void;
}

/**
 * Runs the TUI's jobs one at a time: a job gets a view, a cancel and a ticker; its failure becomes a
 * note in its view (an interruption, the missing model, the error), never a crash of the TUI.
 */
export class JobRunner {
  private state: JobState = { type: 'idle' };

  constructor(private readonly host: JobRunnerHost) {}

  /** The running job, null when idle. */
  get running(): RunningJob | null {
    return this.state.type === 'running' ? this.state.job : null;
  }

  /** Runs `work` as the job; resolves once it ended and the host was told. */
  async run(work: JobWork): Promise<void> {
    const cancel = new AbortController();
    const view = this.host.startView();
    const done = deferred();
    this.state = {
      type: 'running',
      job: { view, cancel, done: done.promise },
      ticker: setInterval(() => this.host.tick(), TICK_MS),
    };
    try {
      await work(view, cancel.signal);
    } catch (error) {
      view.note(jobFailure(error, this.host.style));
    } finally {
      this.becomeIdle();
      done.resolve();
      this.host.ended();
    }
  }

  /** Cancels the running job (Esc, Ctrl-C); it winds down and ends as usual. */
  cancel(): void {
    this.running?.cancel.abort(new RunCancelled());
  }

  /** Cancels the running job and waits for it to wind down, at most `timeoutMs`; stops its ticker. */
  async stop(timeoutMs: number): Promise<void> {
    const job = this.running;
    if (!job) return;
    job.cancel.abort(new RunCancelled());
    await Promise.race([job.done, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
    this.becomeIdle();
  }

  private becomeIdle(): void {
    if (this.state.type === 'running') clearInterval(this.state.ticker);
    this.state = { type: 'idle' };
  }
}

/** The note a failed job leaves in its view. */
function jobFailure(error: unknown, style: TuiStyle): TerminalSafe {
  if (error instanceof RunCancelled) return style.warn('(interrupted)');
  // The how-to is in the greeting: once is enough, each prompt gets one line.
  if (error instanceof LLMNotSet) return noModelNote(style);
  return errorNote(style, describeTurnError(error));
}
