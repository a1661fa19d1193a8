import { describeSessionWarning, type SessionWarning } from '../app/session-warning.js';

/** How the command line reports a session's warnings: their text on stderr. */
export function printWarning(warning: SessionWarning): void {
  process.stderr.write(describeSessionWarning(warning));
}
