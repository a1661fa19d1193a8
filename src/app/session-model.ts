import { apiKeySource, describeApiKeySource } from '../config/api-key-source.js';
import { checkApiKey } from '../config/check-api-key.js';
import type { LoadedConfig } from '../config/load-config.js';
import { type ResolvedModel, resolveModel } from '../config/resolve-model.js';
import { saveConfigKeys } from '../config/save-config-key.js';
import { updateSessionState } from '../session/state.js';
import type {
  ModelChoice,
  ModelSelection,
  ModelSwitched,
  ModelSwitcher,
  ModelThinking,
} from '../soul/model-switcher.js';
import type { SoulLLM } from '../soul/soul-parts.js';
import { displayUrl } from '../util/display-url.js';
import { buildProvider, type ProviderSettings } from './build-provider.js';
import { LiveCapabilities } from './live-capabilities.js';
import { ModelSwitchError } from './model-switch-error.js';

export interface SessionModelOptions extends ProviderSettings {
  /** Where the config came from: a missing API key is reported against it. */
  configSource: LoadedConfig['source'];
  /** Set (a fleet job's session): `/model` switches the session only; the config is not written. */
  configNotSaved?: string | undefined;
  /** The session's state.json: the alias `/model` chose is kept there. */
  stateFile: string;
  /** `--model`. */
  alias: string | undefined;
  /** The alias this session was switched to (`/model`), from state.json. */
  savedAlias: string | null;
  /** Thinking on/off as `/model` chose it for this session, from state.json. */
  savedThinking?: boolean | null | undefined;
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
    /** Thinking as `/model` chose it; undefined: `--thinking` or the config's `default_thinking`. */
    private thinkingChoice: boolean | undefined,
  ) {}

  /** Resolves the session's model and builds its provider (when the config has a usable one). */
  static async open(options: SessionModelOptions): Promise<SessionModel> {
    const { config, savedAlias } = options;
    // `--model` first, then the model this session was switched to, then the config's default.
    const saved = savedAlias !== null && Object.hasOwn(config.models, savedAlias) ? savedAlias : undefined;
    // `--thinking` / `--no-thinking` first, then what `/model` chose for this session.
    const choice = options.thinking === undefined ? (options.savedThinking ?? undefined) : undefined;
    const resolved = resolveModel(config, {
      modelAlias: options.alias ?? saved,
      env: options.env,
      home: options.home,
    });
    if (resolved.status !== 'ready')
      return new SessionModel(options, { status: 'not-set', message: resolved.message }, choice);
    checkApiKey(resolved, options.configSource);
    const llm = await llmOf(resolved, withThinking(options, choice));
    return new SessionModel(options, { status: 'ready', alias: resolved.modelAlias, llm }, choice);
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

  /** Whether the current model thinks (always, or optionally and switched on). */
  get thinking(): boolean {
    const llm = this.llm;
    return llm !== null && thinkingOn(thinkingOf(llm.capabilities), this.wantsThinking);
  }

  list(): ModelChoice[] {
    return Object.entries(this.options.config.models).map(([alias, model]) => {
      const resolved = this.resolve(alias);
      const capabilities = resolved.status === 'ready' ? resolved.capabilities : (model.capabilities ?? []);
      return {
        alias,
        model: model.model,
        provider: model.provider,
        maxContextSize: resolved.status === 'ready' ? resolved.maxContextSize : model.max_context_size,
        displayName: model.display_name,
        thinking: thinkingOf(new Set<string>(capabilities)),
        current: alias === this.alias,
      };
    });
  }

  async select(alias: string, selection: ModelSelection = {}): Promise<ModelSwitched> {
    const { config } = this.options;
    if (!Object.hasOwn(config.models, alias)) {
      const known = Object.keys(config.models).join(', ') || 'none';
      const shown = alias.length > 60 ? `${alias.slice(0, 59)}…` : alias;
      throw new ModelSwitchError(
        alias,
        'unknown_alias',
        `unknown model alias '${shown}'; configured: ${known}`,
      );
    }
    const chosen = this.resolve(alias);
    if (chosen.status !== 'ready') throw new ModelSwitchError(alias, 'unusable', `${chosen.reason}.`);
    const choice = selection.thinking ?? this.thinkingChoice;
    const llm = await llmOf(chosen, withThinking(this.options, choice));
    this.state = { status: 'ready', alias, llm };
    this.thinkingChoice = choice;
    for (const listener of this.switchListeners) listener(llm);
    await updateSessionState(this.options.stateFile, (s) => ({
      ...s,
      model_alias: alias,
      ...(choice === undefined ? {} : { model_thinking: choice }),
    }));
    const thinking = this.thinking;
    if (!selection.saveAsDefault) return { alias, thinking, savedTo: null, notSaved: null };
    return { alias, thinking, ...(await this.saveAsDefault(alias, thinking)) };
  }

  /** Thinking as wanted now: `/model`'s choice, else `--thinking`, else the config's default. */
  private get wantsThinking(): boolean {
    return this.thinkingChoice ?? this.options.thinking ?? this.options.config.default_thinking;
  }

  /** Kimi CLI's `/model` keeps the choice as `default_model` and `default_thinking` of the config. */
  private async saveAsDefault(
    alias: string,
    thinking: boolean,
  ): Promise<Pick<ModelSwitched, 'savedTo' | 'notSaved'>> {
    const source = this.options.configSource;
    if (this.options.configNotSaved) return { savedTo: null, notSaved: this.options.configNotSaved };
    if (source.kind === 'inline')
      return { savedTo: null, notSaved: 'the config came from --config, there is no file to save it in' };
    try {
      await saveConfigKeys(source.path, { default_model: alias, default_thinking: thinking });
      return { savedTo: source.path, notSaved: null };
    } catch (error) {
      return { savedTo: null, notSaved: error instanceof Error ? error.message : String(error) };
    }
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

function thinkingOf(capabilities: ReadonlySet<string>): ModelThinking {
  if (capabilities.has('always_thinking')) return 'always';
  return capabilities.has('thinking') ? 'optional' : 'none';
}

function thinkingOn(kind: ModelThinking, wanted: boolean): boolean {
  return kind === 'always' || (kind === 'optional' && wanted);
}

/** The provider settings with `/model`'s thinking choice in place of `--thinking` (when it made one). */
function withThinking(settings: SessionModelOptions, choice: boolean | undefined): SessionModelOptions {
  return choice === undefined ? settings : { ...settings, thinking: choice };
}

async function llmOf(resolved: ResolvedModel, settings: SessionModelOptions): Promise<SoulLLM> {
  return {
    provider: await buildProvider(resolved, settings),
    maxContextSize: resolved.maxContextSize,
    capabilities: new Set<string>(resolved.capabilities),
    origin: {
      provider:
        resolved.providerName === null
          ? `the ${resolved.providerType} provider of KIMI_BASE_URL`
          : `provider "${resolved.providerName}" (${resolved.providerType})`,
      baseUrl: displayUrl(resolved.baseUrl),
      keySource: describeApiKeySource(apiKeySource(resolved, settings.configSource)),
    },
  };
}
