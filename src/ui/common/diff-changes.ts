import { diffLines } from 'diff';

/** One changed line of a file edit: removed (`-`, its old line number) or added (`+`, its new one). */
export interface ChangedLine {
  readonly sign: '+' | '-';
  readonly number: number;
  /** The line as the file has it: NOT sanitised, each front end reveals it its own way. */
  readonly text: string;
}

/** The texts of a diff display block (a hunk of a file edit), as the wire carries them. */
export interface DiffTexts {
  readonly old_text: string;
  readonly new_text: string;
  readonly old_start: number;
  readonly new_start: number;
}

/**
 * The changed lines of a file edit's hunk with their line numbers, unchanged (context) lines left
 * out: what the terminal UI and the line shell show of an edit, the same lines in both.
 */
export function changedLines(block: DiffTexts): ChangedLine[] {
  const lines: ChangedLine[] = [];
  let oldLine = block.old_start;
  let newLine = block.new_start;
  for (const change of diffLines(block.old_text, block.new_text)) {
    for (const text of change.value.replace(/\n$/, '').split('\n')) {
      if (change.added) lines.push({ sign: '+', number: newLine++, text });
      else if (change.removed) lines.push({ sign: '-', number: oldLine++, text });
      else {
        oldLine++;
        newLine++;
      }
    }
  }
  return lines;
}
