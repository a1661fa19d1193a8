import { checkApiKey } from '../config/check-api-key.js';
import type { LoadedConfig } from '../config/load-config.js';
import { type ResolvedModel, resolveModel } from '../config/resolve-model.js';
import { updateSessionState } from '../session/state.js';
import type { ModelChoice, ModelSwitcher } from '../soul/model-switcher.js';
import type { SoulLLM } from '../soul/soul-parts.js';
import { buildProvider, type ProviderSettings } from './build-provider.js';
import { LiveCapabilities } from './live-capabilities.js';
import { ModelSwitchError } from './model-switch-error.js';

export interface SessionModelOptions extends ProviderSettings {
  /** Where the config came from: a missing API key is reported against it. */
  configSource: LoadedConfig['source'];
  /** The session's state.json: the alias `/model` chose is kept there. */
  stateFile: string;
  /** `--model`. */
  alias: string | undefined;
  /** The alias this session was switched to (`/model`), from state.json. */
  savedAlias: string | null;
}

type ModelState =
  | { status: 'ready'; alias: string | null; llm: SoulLLM }
  | { status: 'not-set'; message: string };

const NO_CAPABILITIES: ReadonlySet<string> = new Set();

/**
 * The one owner of a session's model: which `[models.ALIAS]` it uses, the LLM built for it and what
 * that model accepts. A switch replaces the state whole; nothing holds a copy of it (tools read the
 * capabilities through `capabilities`, the soul is told through `onSwitch`).
 */
export class SessionModel implements ModelSwitcher {
  /** What the current model accepts (`image_in`, `video_in`, …), read live on every call. */
  readonly capabilities: ReadonlySet<string> = new LiveCapabilities(
    () => this.llm?.capabilities ?? NO_CAPABILITIES,
  );
  private readonly switchListeners: ((llm: SoulLLM) => void)[] = [];

  private constructor(
    private readonly options: SessionModelOptions,
    private state: ModelState,
  ) {}

  /** Resolves the session's model and builds its provider (when the config has a usable one). */
  static async open(options: SessionModelOptions): Promise<SessionModel> {
    const { config, savedAlias } = options;
    // `--model` first, then the model this session was switched to, then the config's default.
    const saved = savedAlias !== null && Object.hasOwn(config.models, savedAlias) ? savedAlias : undefined;
    const resolved = resolveModel(config, {
      modelAlias: options.alias ?? saved,
      env: options.env,
      home: options.home,
    });
    if (resolved.status !== 'ready')
      return new SessionModel(options, { status: 'not-set', message: resolved.message });
    checkApiKey(resolved, options.configSource);
    const llm = await llmOf(resolved, options);
    return new SessionModel(options, { status: 'ready', alias: resolved.modelAlias, llm });
  }

  get llm(): SoulLLM | null {
    return this.state.status === 'ready' ? this.state.llm : null;
  }

  /** The `[models.ALIAS]` in use; null without a model or when the environment alone defines it. */
  get alias(): string | null {
    return this.state.status === 'ready' ? this.state.alias : null;
  }

  /** How to configure a model when there is none; empty when there is one. */
  get llmNotSetMessage(): string {
    return this.state.status === 'ready' ? '' : this.state.message;
  }

  list(): ModelChoice[] {
    return Object.entries(this.options.config.models).map(([alias, model]) => ({
      alias,
      model: model.model,
      provider: model.provider,
      current: alias === this.alias,
    }));
  }

  async select(alias: string): Promise<void> {
    const { config } = this.options;
    if (!Object.hasOwn(config.models, alias)) {
      const known = Object.keys(config.models).join(', ') || 'none';
      throw new ModelSwitchError(
        alias,
        'unknown_alias',
        `No model "${alias}" in the config (models: ${known}).`,
      );
    }
    const chosen = this.resolve(alias);
    if (chosen.status !== 'ready') throw new ModelSwitchError(alias, 'unusable', chosen.message);
    const llm = await llmOf(chosen, this.options);
    this.state = { status: 'ready', alias, llm };
    for (const listener of this.switchListeners) listener(llm);
    await updateSessionState(this.options.stateFile, (s) => ({ ...s, model_alias: alias }));
  }

  /** Called with the new LLM after every switch. */
  onSwitch(listener: (llm: SoulLLM) => void): void {
    this.switchListeners.push(listener);
  }

  /** The LLM of another `[models.ALIAS]` (a subagent's own model); null when it is unusable. */
  async llmForAlias(alias: string): Promise<SoulLLM | null> {
    const other = this.resolve(alias);
    return other.status === 'ready' ? llmOf(other, this.options) : null;
  }

  private resolve(alias: string) {
    return resolveModel(this.options.config, {
      modelAlias: alias,
      env: this.options.env,
      home: this.options.home,
    });
  }
}

async function llmOf(resolved: ResolvedModel, settings: ProviderSettings): Promise<SoulLLM> {
  return {
    provider: await buildProvider(resolved, settings),
    maxContextSize: resolved.maxContextSize,
    capabilities: new Set<string>(resolved.capabilities),
  };
}
