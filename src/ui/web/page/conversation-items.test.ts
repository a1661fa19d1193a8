import { describe, expect, it } from 'vitest';
import { applyItemEvent } from './conversation-items.js';
import type { WireEvent } from './wire-types.js';

const goal = (turns: number, tokens: number, status: 'active' | 'blocked'): WireEvent => ({
  type: 'GoalUpdated',
  payload: {
    goal: {
      id: 'g1',
      objective: 'make <b>it</b> pass',
      status,
      check: null,
      reason: status === 'blocked' ? 'Token budget reached: 900 of 900 tokens.' : null,
      turns_used: turns,
      tokens_used: tokens,
      elapsed_ms: 0,
      max_turns: null,
      max_tokens: 900,
      max_time_ms: null,
    },
  },
});

describe('the page’s goal line', () => {
  it('adds a notice when the goal line changes, not for each step’s tokens', () => {
    let items = applyItemEvent([], goal(1, 0, 'active'));
    items = applyItemEvent(items, goal(1, 300, 'active'));
    items = applyItemEvent(items, goal(1, 900, 'blocked'));
    expect(items).toEqual([
      { kind: 'notice', tone: 'info', text: 'goal: make <b>it</b> pass — active · turns 1/∞' },
      {
        kind: 'notice',
        tone: 'info',
        text: 'goal: make <b>it</b> pass — blocked (Token budget reached: 900 of 900 tokens.) · turns 1/∞',
      },
    ]);
  });
});

describe('an interrupted step', () => {
  it('adds no notice of its own (the turn’s error says what happened)', () => {
    const interrupted: WireEvent = { type: 'StepInterrupted', payload: {} } as WireEvent;
    expect(applyItemEvent([], interrupted)).toEqual([]);
  });
});
