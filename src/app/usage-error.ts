/**
 * A problem with how the CLI was called: shown with the usage line and a hint to `--help`, exit 2
 * (as Kimi CLI's usage errors), no stack trace. With `option`, worded as Kimi CLI words them:
 * "Invalid value for --continue: …".
 */
export class UsageError extends Error {
  override name = 'UsageError';
  constructor(
    message: string,
    readonly option?: string,
  ) {
    super(option === undefined ? message : `Invalid value for ${option}: ${message}`);
  }
}
