import type { ContentPart } from '../kosong/message.js';

export type ModelCapability = 'image_in' | 'video_in' | 'thinking' | 'always_thinking';

/** The capabilities a model lacks for this content (image → image_in, video → video_in, think → thinking). */
export function missingCapabilities(
  content: readonly ContentPart[],
  capabilities: ReadonlySet<string>,
): ModelCapability[] {
  const missing = new Set<ModelCapability>();
  for (const part of content) {
    if (part.type === 'image_url' && !capabilities.has('image_in')) missing.add('image_in');
    if (part.type === 'video_url' && !capabilities.has('video_in')) missing.add('video_in');
    if (part.type === 'think' && !capabilities.has('thinking') && !capabilities.has('always_thinking'))
      missing.add('thinking');
  }
  return [...missing];
}
