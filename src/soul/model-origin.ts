/** The provider behind a model as a person configured it. Never holds the key, only where it came from. */
export interface ModelOrigin {
  /** `provider "local" (openai_legacy)`, or `the kimi provider of KIMI_BASE_URL`. */
  provider: string;
  baseUrl: string;
  /** `the environment variable KIMI_API_KEY`, `providers.x.api_key in /path/config.toml`, … */
  keySource: string;
}
