import { describe, expect, it } from 'vitest';
import { describeChanges } from './turn-list.js';

describe('describeChanges', () => {
  it('counts what a turn did to the files, says when it did nothing, and nothing when not known', () => {
    expect(describeChanges({ created: 2, modified: 1, deleted: 0 })).toBe('2 created, 1 modified, 0 deleted');
    expect(describeChanges({ created: 0, modified: 0, deleted: 0 })).toBe('no file changes');
    expect(describeChanges(null)).toBe('');
  });
});
