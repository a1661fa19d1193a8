import { describeTurnError, exitCodeFor, LLMNotSet, MaxStepsReached, RunCancelled } from '../soul/errors.js';
import { sanitizeForTerminal } from '../util/sanitize-terminal.js';

/** How a turn that threw ends, as print mode says it: the exit code and the line for stderr. */
export function turnEndOf(error: unknown): { code: number; error: string } {
  if (error instanceof RunCancelled) return { code: 1, error: 'Interrupted by user' };
  if (error instanceof LLMNotSet || error instanceof MaxStepsReached)
    return { code: 1, error: error.message };
  return { code: exitCodeFor(error), error: `Error: ${sanitizeForTerminal(describeTurnError(error))}` };
}
