import type { Message, ProviderPart, ThinkingEffort, TokenUsage } from './message.js';
import type { Tool } from './tool.js';

export interface GenerateRequest {
  systemPrompt: string;
  tools: readonly Tool[];
  history: readonly Message[];
  signal?: AbortSignal | undefined;
}

/** One streamed model answer. `id` and `usage` are final once iteration has ended. */
export interface StreamedMessage extends AsyncIterable<ProviderPart> {
  readonly id: string | null;
  readonly usage: TokenUsage | null;
}

/**
 * A streaming chat model. `generate` opens the call (HTTP errors surface here or while iterating)
 * and every failure is one of the typed errors of `errors.ts`.
 */
export interface ChatProvider {
  /** Provider kind, e.g. `kimi`, `anthropic`, `scripted`. */
  readonly name: string;
  readonly modelName: string;
  readonly thinkingEffort: ThinkingEffort | null;
  generate(request: GenerateRequest): Promise<StreamedMessage>;
  /** A copy of this provider that uses the given thinking effort. */
  withThinking(effort: ThinkingEffort): ChatProvider;
  /**
   * Connection recovery for the soul (seed 002 §7.3): called once after a connection or timeout
   * error; returns true if the provider rebuilt what it could (e.g. its HTTP client) and the call
   * is worth one more try.
   */
  onRetryableError?(error: Error): Promise<boolean>;
  /**
   * Uploads a video for the model to watch and returns the URL a `video_url` part then carries
   * (Kimi: its files API, `ms://<file id>`). Absent where videos go inline as data URLs.
   */
  uploadVideo?(video: VideoUpload, signal?: AbortSignal): Promise<string>;
}

export interface VideoUpload {
  data: Uint8Array;
  mimeType: string;
  filename: string;
}
