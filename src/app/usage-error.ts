/** A problem with how the CLI was called: shown as is, exit 1, no stack trace. */
export class UsageError extends Error {
  override name = 'UsageError';
}
