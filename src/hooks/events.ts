import type { HookEvent } from './types.js';

/**
 * What the engine reports while it works. The payload fields are those of Kimi CLI's wire events of
 * the same names, so whoever owns the wire can forward them as they are.
 */
export interface HookTriggeredEvent {
  type: 'HookTriggered';
  payload: { event: HookEvent; target: string; hook_count: number };
}

export interface HookResolvedEvent {
  type: 'HookResolved';
  payload: {
    event: HookEvent;
    target: string;
    action: 'allow' | 'block';
    reason: string;
    duration_ms: number;
  };
}

export type HookEngineEvent = HookTriggeredEvent | HookResolvedEvent;

export type HookEventSink = (event: HookEngineEvent) => void;
