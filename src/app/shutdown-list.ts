/** Work to do when a session closes, done once, last added first. */
export class ShutdownList {
  private readonly steps: (() => Promise<void>)[] = [];
  private readonly abandonSteps: (() => void)[] = [];
  private running: Promise<void> | null = null;

  add(step: () => Promise<void>): void {
    this.steps.push(step);
  }

  /**
   * What to give up at once when the session must close now (the terminal closed, SIGTERM): work a
   * normal close would wait for (a checkpoint being recorded) is stopped instead.
   */
  onAbandon(step: () => void): void {
    this.abandonSteps.push(step);
  }

  /** Runs the steps once; a second call (also with `abandon`) waits for the same run. */
  runAll(options: { abandon?: boolean } = {}): Promise<void> {
    if (options.abandon) {
      for (const step of this.abandonSteps) {
        try {
          step();
        } catch {
          // Abandoning is best effort; the close below still runs.
        }
      }
    }
    this.running ??= this.runSteps();
    return this.running;
  }

  private async runSteps(): Promise<void> {
    for (const step of [...this.steps].reverse()) {
      try {
        await step();
      } catch {
        // Closing goes on: one service failing to stop must not keep the others running.
      }
    }
  }
}
