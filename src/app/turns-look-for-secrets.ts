import type { CommandSandbox } from '../policy/sandbox.js';
import type { WorkTreeCheckpoints } from '../soul/work-tree-checkpoints.js';

/**
 * The soul's turn boundaries with the sandbox told when a turn begins: it looks for the workspace's
 * secret files again (one the person made between turns is hidden from the turn's commands), while
 * the model is asked. The checkpoints, when on, are told as before.
 */
export function turnsLookForSecrets(
  workTree: WorkTreeCheckpoints | undefined,
  sandbox: CommandSandbox | null,
): WorkTreeCheckpoints | undefined {
  if (sandbox === null) return workTree;
  return {
    beginTurn: (turn) => {
      sandbox.turnBegins();
      workTree?.beginTurn(turn);
    },
    beginStep: (n) => workTree?.beginStep(n),
    endTurn: () => workTree?.endTurn() ?? Promise.resolve(),
    untilRecorded: (signal) => workTree?.untilRecorded(signal) ?? Promise.resolve(),
  };
}
