import { existsSync } from 'node:fs';
import { checkpointStoreDir } from '../../session/checkpoints/checkpoint-store.js';
import { planRestore } from '../../session/checkpoints/restore-plan.js';
import { sanitizeForTerminal } from '../../util/sanitize-terminal.js';
import { readCheckpointLog } from './checkpoint-log.js';

/**
 * `kimi-ts sessions --checkpoints ID`: the session's file checkpoints, oldest first — turn, step,
 * time, how many files differ from the checkpoint before — and its rewinds and redos.
 */
export async function formatSessionCheckpoints(
  home: string,
  workDir: string,
  sessionDir: string,
): Promise<string> {
  const records = await readCheckpointLog(sessionDir);
  if (records.length === 0) return 'This session has no checkpoints.\n';
  const gitDir = checkpointStoreDir(home, workDir);
  const hasStore = existsSync(gitDir);
  const prompts = new Map<number, string>();
  const lines = ['turn  step  time                 files changed  note'];
  let previous: string | null = null;
  for (const record of records) {
    const time = new Date(record.at).toISOString().replace('T', ' ').slice(0, 19);
    if (record.type === 'rewind' || record.type === 'redo') {
      const what =
        record.type === 'rewind' ? `rewind to before turn ${record.to_turn_id}` : 'redo of the last rewind';
      const scope = [record.code ? 'files' : '', record.conversation ? 'conversation' : ''].filter(Boolean);
      lines.push(`-     -     ${time}  -              ${what} (${scope.join(' and ') || 'nothing'})`);
      previous = record.after_checkpoint ?? previous;
      continue;
    }
    let changed = '?';
    if (previous === null) changed = '-';
    else if (previous === record.checkpoint) changed = '0';
    else if (hasStore) {
      const changes = await planRestore(gitDir, previous, record.checkpoint).catch(() => null);
      changed = changes === null ? 'pruned' : String(changes.length);
    }
    previous = record.checkpoint;
    if (record.type === 'turn') prompts.set(record.turn_id, record.prompt);
    const step = record.type === 'step' ? String(record.step) : record.type === 'turn' ? 'start' : 'end';
    const note = record.type === 'turn' ? oneLine(record.prompt) : '';
    lines.push(
      `${String(record.turn_id).padEnd(6)}${step.padEnd(6)}${time}  ${changed.padEnd(15)}${note}`.trimEnd(),
    );
  }
  return `${lines.join('\n')}\n`;
}

function oneLine(text: string): string {
  // The prompt is the user's text: control characters never reach the terminal.
  const flat = sanitizeForTerminal(text).replace(/\s+/g, ' ').trim();
  return flat.length > 60 ? `${flat.slice(0, 57)}...` : flat;
}
