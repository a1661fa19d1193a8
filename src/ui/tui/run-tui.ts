import { TuiController } from './tui-controller.js';
import type { TuiEnd, TuiOptions } from './tui-options.js';

export type { TuiEnd, TuiOptions };

/**
 * The terminal UI: inline (the conversation goes to the terminal's own scrollback; only what changed
 * is redrawn), a prompt editor at the bottom with the status line under it. Enter sends the prompt, or
 * queues it while a turn runs; Ctrl-S steers the running turn with it; Esc or Ctrl-C cancels the
 * turn; Ctrl-C twice (or Ctrl-D) at an empty prompt, /exit or /quit leave. Returns how the run ended:
 * left with an exit code, or to start again as a command asked (`canRestart`).
 */
export async function runTui(options: TuiOptions): Promise<TuiEnd> {
  const pastPrompts = (await options.history?.load()) ?? [];
  const controller = new TuiController(options, pastPrompts);
  await controller.replay();
  return controller.run();
}
