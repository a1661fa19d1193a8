import { describeSessionWarning, type SessionWarning } from '../app/session-warning.js';
import { sanitizeForTerminal } from '../util/sanitize-terminal.js';
import { writeStderr } from './terminal-output.js';

/** How the command line reports a session's warnings: their text on stderr, made safe. */
export function printWarning(warning: SessionWarning): void {
  writeStderr(sanitizeForTerminal(describeSessionWarning(warning)));
}
