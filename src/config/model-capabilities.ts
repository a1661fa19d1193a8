/** What a model of the config can do (`[models.*] capabilities`, `KIMI_MODEL_CAPABILITIES`). */
export const MODEL_CAPABILITIES = ['thinking', 'always_thinking', 'image_in', 'video_in'] as const;
export type ModelCapability = (typeof MODEL_CAPABILITIES)[number];
