/** Why the session cannot switch to the model `alias`: not in the config, unusable, or a turn runs. */
export class ModelSwitchError extends Error {
  override name = 'ModelSwitchError';
  constructor(
    readonly alias: string,
    readonly reason: 'unknown_alias' | 'unusable' | 'turn_running',
    message: string,
  ) {
    super(message);
  }
}
