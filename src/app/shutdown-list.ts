/** Work to do when a session closes, done once, last added first. */
export class ShutdownList {
  private readonly steps: (() => Promise<void>)[] = [];
  private done = false;

  add(step: () => Promise<void>): void {
    this.steps.push(step);
  }

  async runAll(): Promise<void> {
    if (this.done) return;
    this.done = true;
    for (const step of [...this.steps].reverse()) {
      try {
        await step();
      } catch {
        // Closing goes on: one service failing to stop must not keep the others running.
      }
    }
  }
}
