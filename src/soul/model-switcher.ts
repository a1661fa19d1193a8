/** A model of the config (`[models.ALIAS]`) a session can switch to. */
export interface ModelChoice {
  alias: string;
  /** The model name sent to the API. */
  model: string;
  /** The `[providers.NAME]` it uses. */
  provider: string;
  /** Whether the session uses it now. */
  current: boolean;
}

/** Lists the config's models and switches the session's model (`/model`, ACP's model option). */
export interface ModelSwitcher {
  list(): ModelChoice[];
  /** Uses the model `alias` from the next model call on; rejects with the reason it cannot. */
  select(alias: string): Promise<void>;
}
