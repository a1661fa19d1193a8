import { describe, expect, it } from 'vitest';
import { timeByKind } from './model-summary.js';
import type { VisSpan } from './vis-model.js';

const span = (kind: VisSpan['kind'], start: number, end: number | null, label: string = kind): VisSpan => ({
  kind,
  lane: 0,
  start,
  end,
  label,
  event: 0,
});

describe('timeByKind (vis: where the time went)', () => {
  it('counts each instant once, the most telling kind first, and adds up to the total', () => {
    const seconds = timeByKind(
      [
        span('turn', 0, 10),
        span('step', 0, 10),
        span('model', 1, 4),
        // A tool starts while the model still streams, then waits 2 s for its approval.
        span('tool', 3, 8),
        span('approval', 5, 7, 'approval: Shell run command'),
        span('approval', 8.5, 9, 'question to the user'),
        span('turn', 12, null),
        span('model', 12, 13),
      ],
      0,
      14,
    );
    expect(seconds).toEqual({
      model: 2 + 1,
      tools: 5 - 2,
      approvals: 2,
      questions: 0.5,
      waiting: 2.5,
      otherInTurns: 1 + 0.5 + 1 + 1,
      betweenTurns: 2,
      total: 14,
    });
    const parts = ['model', 'tools', 'approvals', 'questions', 'otherInTurns', 'betweenTurns'] as const;
    expect(parts.reduce((sum, kind) => sum + seconds[kind], 0)).toBeCloseTo(seconds.total);
  });
});
