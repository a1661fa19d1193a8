/** Whether a model thinks: never, when asked (`thinking`), or always (`always_thinking`). */
export type ModelThinking = 'none' | 'optional' | 'always';

/** A model of the config (`[models.ALIAS]`) a session can switch to. */
export interface ModelChoice {
  alias: string;
  /** The model name sent to the API. */
  model: string;
  /** The `[providers.NAME]` it uses. */
  provider: string;
  /** The context window, in tokens (`max_context_size`). */
  maxContextSize: number;
  /** `display_name`, when the config gives one. */
  displayName?: string | undefined;
  thinking: ModelThinking;
  /** Whether the session uses it now. */
  current: boolean;
}

/** How `/model` switches: thinking on or off (absent: as it is), and whether to keep it as the default. */
export interface ModelSelection {
  /** Thinking on or off, for a model where it is optional; ignored for the others. */
  thinking?: boolean | undefined;
  /**
   * Also save the choice as the config's `default_model` / `default_thinking` (what Kimi CLI's
   * `/model` does), in the config file in use.
   */
  saveAsDefault?: boolean | undefined;
}

/** What a switch did. */
export interface ModelSwitched {
  alias: string;
  /** Whether the model thinks from now on. */
  thinking: boolean;
  /** The config file the choice was saved in; null when it was not saved (see `notSaved`). */
  savedTo: string | null;
  /** Why it was not saved although asked (an inline `--config`, a file that could not be edited). */
  notSaved: string | null;
}

/** Lists the config's models and switches the session's model (`/model`, ACP's model option). */
export interface ModelSwitcher {
  list(): ModelChoice[];
  /** Whether the current model thinks. */
  readonly thinking: boolean;
  /** Uses the model `alias` from the next model call on; rejects with the reason it cannot. */
  select(alias: string, selection?: ModelSelection): Promise<ModelSwitched>;
}
