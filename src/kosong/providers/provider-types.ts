/** Provider types of the config (`[providers.*] type`), with Kimi CLI's test-provider spellings. */
export const PROVIDER_TYPES = [
  'kimi',
  'openai_legacy',
  'openai_responses',
  'anthropic',
  'gemini',
  'google_genai',
  'vertexai',
  '_echo',
  '_scripted_echo',
  '_chaos',
  'scripted',
  'echo',
  'chaos',
] as const;

export type ProviderType = (typeof PROVIDER_TYPES)[number];
