import { describe, expect, it } from 'vitest';
import type { CheckpointLogRecord } from './checkpoint-log.js';
import { replayTurnHistory } from './turn-history.js';

const c = (n: number) => String(n).repeat(40).slice(0, 40);
const turn = (id: number, start: number): CheckpointLogRecord => ({
  type: 'turn',
  turn_id: id,
  prompt: `prompt ${id}`,
  context_checkpoint: id * 2,
  context_text_sha256: 'x',
  checkpoint: c(start),
  at: id,
});
const end = (id: number, cp: number): CheckpointLogRecord => ({
  type: 'turn_end',
  turn_id: id,
  checkpoint: c(cp),
  at: id,
});

describe('replayTurnHistory', () => {
  it('numbers the turns of the current branch and notes gaps where someone else changed files', () => {
    const history = replayTurnHistory([turn(1, 1), end(1, 2), turn(2, 3), end(2, 4), turn(3, 4)]);
    expect(history.turns.map((t) => t.turnId)).toEqual([1, 2, 3]);
    expect(history.gaps).toEqual([{ beforeTurnId: 2, from: c(2), to: c(3) }]);
    expect(history.lastEnd).toBeNull();
    expect(history.redoable).toBeNull();
  });

  it('a rewind of the conversation cuts the list; a redo puts it back; a new turn ends the redo', () => {
    const rewind: CheckpointLogRecord = {
      type: 'rewind',
      to_turn_id: 2,
      code: true,
      conversation: true,
      before_checkpoint: c(4),
      context_branch: 'context_1.jsonl',
      after_checkpoint: c(3),
      at: 9,
    };
    const base = [turn(1, 1), end(1, 2), turn(2, 2), end(2, 4), rewind];
    const cut = replayTurnHistory(base);
    expect(cut.turns.map((t) => t.turnId)).toEqual([1]);
    expect(cut.redoable?.turns.map((t) => t.turnId)).toEqual([2]);
    expect(cut.lastEnd).toBe(c(3));
    const redo: CheckpointLogRecord = {
      type: 'redo',
      code: true,
      conversation: true,
      after_checkpoint: c(4),
      at: 10,
    };
    expect(replayTurnHistory([...base, redo]).turns.map((t) => t.turnId)).toEqual([1, 2]);
    expect(replayTurnHistory([...base, turn(3, 3)]).redoable).toBeNull();
  });

  it('a rewind of the files alone keeps the turn list', () => {
    const history = replayTurnHistory([
      turn(1, 1),
      end(1, 2),
      {
        type: 'rewind',
        to_turn_id: 1,
        code: true,
        conversation: false,
        before_checkpoint: c(2),
        context_branch: null,
        after_checkpoint: c(1),
        at: 3,
      },
    ]);
    expect(history.turns).toHaveLength(1);
    expect(history.redoable?.turns).toEqual([]);
  });
});
