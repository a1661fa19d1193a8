import { createRequire } from 'node:module';

// `diff` loads on the first diff, not when the tool loads: startup pays only for what it uses.
const requireModule = createRequire(import.meta.url);
let diffModule: typeof import('diff') | undefined;
function diffLibrary(): typeof import('diff') {
  diffModule ??= requireModule('diff') as typeof import('diff');
  return diffModule;
}

/** Lines of context around each change, as in a unified diff. */
export const DIFF_CONTEXT_LINES = 3;
/** Past this many lines (old or new side), a change is shown as one summary block, not diffed. */
export const MAX_DIFF_LINES = 10_000;

/** The wire's `diff` display block (see `src/wire/display.ts`), built here without importing the wire. */
export type DiffBlock = {
  type: 'diff';
  path: string;
  old_text: string;
  new_text: string;
  /** First line number of `old_text` in the old file (1-based). */
  old_start: number;
  new_start: number;
  is_summary: boolean;
};

function countLines(text: string): number {
  if (text === '') return 0;
  let count = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  return text.endsWith('\n') ? count - 1 : count;
}

/**
 * Display blocks showing how a file changes: one block per hunk (with 3 lines of context), so an
 * approval or a result shows only what moves. A huge file gets a single summary block instead,
 * because diffing it would stall the session for what no one could read anyway.
 */
export function buildDiffBlocks(path: string, oldText: string, newText: string): DiffBlock[] {
  const oldLines = countLines(oldText);
  const newLines = countLines(newText);
  if (oldLines > MAX_DIFF_LINES || newLines > MAX_DIFF_LINES) {
    return [
      {
        type: 'diff',
        path,
        old_text: `(${oldLines} lines before the change)`,
        new_text: `(${newLines} lines after the change)`,
        old_start: 1,
        new_start: 1,
        is_summary: true,
      },
    ];
  }
  const patch = diffLibrary().structuredPatch(path, path, oldText, newText, undefined, undefined, {
    context: DIFF_CONTEXT_LINES,
  });
  const blocks = patch.hunks.map((hunk): DiffBlock => {
    const before: string[] = [];
    const after: string[] = [];
    for (const line of hunk.lines) {
      const marker = line[0];
      const text = line.slice(1);
      if (marker === ' ' || marker === '-') before.push(text);
      if (marker === ' ' || marker === '+') after.push(text);
    }
    return {
      type: 'diff',
      path,
      old_text: before.join('\n'),
      new_text: after.join('\n'),
      // jsdiff's structured hunks are 1-based even when empty (unified-diff text subtracts one then).
      old_start: hunk.oldStart,
      new_start: hunk.newStart,
      is_summary: false,
    };
  });
  if (blocks.length > 0) return blocks;
  return [
    {
      type: 'diff',
      path,
      old_text: oldText,
      new_text: newText,
      old_start: 1,
      new_start: 1,
      is_summary: false,
    },
  ];
}
