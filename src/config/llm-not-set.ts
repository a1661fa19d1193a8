import { defaultConfigFile } from './home.js';

/** No usable model: why, and the text that tells the user how to configure one. */
export interface LLMNotSet {
  status: 'not_set';
  /** One sentence on what is missing, e.g. `no model is configured`. */
  reason: string;
  /** Step-by-step instructions (environment variables or a config file). */
  howToConfigure: string;
  /** `reason` and `howToConfigure` together, ready to print. */
  message: string;
}

export function llmNotSet(reason: string, home: string): LLMNotSet {
  const howToConfigure = howToConfigureText(home);
  return {
    status: 'not_set',
    reason,
    howToConfigure,
    message: `LLM not set: ${reason}.\n\n${howToConfigure}`,
  };
}

/** The configuration how-to, pointing at the config file kimi-ts would read by default. */
export function howToConfigureText(home: string): string {
  return [
    'Configure a model in one of three ways:',
    '',
    '0. Log in to Kimi Code (a login in the browser; nothing to copy):',
    '     kimi-ts login',
    '',
    '1. Environment variables (an OpenAI-compatible Kimi endpoint by default):',
    '     export KIMI_BASE_URL="https://api.moonshot.ai/v1"',
    '     export KIMI_API_KEY="<your API key>"',
    '     export KIMI_MODEL_NAME="<model name>"',
    '     export KIMI_MODEL_MAX_CONTEXT_SIZE=262144    # optional',
    '   For another kind of API also set KIMI_TS_PROVIDER_TYPE to openai_legacy,',
    '   openai_responses, anthropic or gemini.',
    '',
    `2. A config file: ${defaultConfigFile(home)} (or pass --config-file PATH):`,
    '     default_model = "my-model"',
    '',
    '     [providers.my-provider]',
    '     type = "kimi"              # or openai_legacy, openai_responses, anthropic, gemini',
    '     base_url = "https://api.moonshot.ai/v1"',
    '     api_key = "<your API key>"',
    '',
    '     [models.my-model]',
    '     provider = "my-provider"',
    '     model = "<model name>"',
    '     max_context_size = 262144',
    '',
    '   A Kimi CLI config.toml works too: --config-file ~/.kimi/config.toml',
  ].join('\n');
}
