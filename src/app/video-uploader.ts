import type { ChatProvider } from '../kosong/provider.js';
import type { VideoUploader } from '../tools/runtime.js';

/** The provider's video upload, where its API has one (Kimi's files API); null: videos go inline. */
export function videoUploaderOf(provider: ChatProvider | null | undefined): VideoUploader | null {
  return provider?.uploadVideo?.bind(provider) ?? null;
}
