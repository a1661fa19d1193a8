import { describeTurnError, exitCodeFor, LLMNotSet, MaxStepsReached, RunCancelled } from '../soul/errors.js';
import { sanitizeForTerminal } from '../util/sanitize-terminal.js';

/** The error of a turn's end when it was cancelled (`fleet cancel`, the page's Cancel). */
export const INTERRUPTED_BY_USER = 'Interrupted by user';

/** How a turn that threw ends, as print mode says it: the exit code and the line for stderr. */
export function turnEndOf(error: unknown): { code: number; error: string } {
  if (error instanceof RunCancelled) return { code: 1, error: INTERRUPTED_BY_USER };
  if (error instanceof LLMNotSet || error instanceof MaxStepsReached)
    return { code: 1, error: error.message };
  return { code: exitCodeFor(error), error: `Error: ${sanitizeForTerminal(describeTurnError(error))}` };
}
