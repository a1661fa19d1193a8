// The engine's report events live in types.ts (a trigger names where its own go); kept here under their old path.
export type { HookEngineEvent, HookEventSink, HookResolvedEvent, HookTriggeredEvent } from './types.js';
