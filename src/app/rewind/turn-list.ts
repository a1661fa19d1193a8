import { planRestore } from '../../session/checkpoints/restore-plan.js';
import type { SessionCheckpoints } from './session-checkpoints.js';
import type { TurnHistory } from './turn-history.js';

/** The numbered list of turns with their prompts and what each changed in the files. */
export async function describeTurns(checkpoints: SessionCheckpoints, history: TurnHistory): Promise<string> {
  if (history.turns.length === 0) return 'There is no turn to rewind yet.';
  const store = await checkpoints.currentStore();
  const lines = ['Turns (/rewind n goes back to before turn n):'];
  for (const [index, turn] of history.turns.entries()) {
    const next = history.turns[index + 1];
    const end = turn.endCheckpoint ?? next?.checkpoint ?? null;
    let changed = '';
    if (end && end !== turn.checkpoint) {
      // From the end back to the start: "remove" is a file the turn created, "restore" one it deleted.
      const changes = await planRestore(store.gitDir, end, turn.checkpoint).catch(() => []);
      const created = changes.filter((c) => c.kind === 'remove').length;
      const deleted = changes.filter((c) => c.kind === 'restore').length;
      const modified = changes.length - created - deleted;
      changed = `  [${created} created, ${modified} modified, ${deleted} deleted]`;
    } else if (end) changed = '  [no file changes]';
    const prompt = turn.prompt.replace(/\s+/g, ' ').trim();
    lines.push(`  ${index + 1}. ${prompt.length > 70 ? `${prompt.slice(0, 67)}...` : prompt}${changed}`);
  }
  if (history.redoable) lines.push('/rewind --redo returns to the state before the last rewind.');
  return lines.join('\n');
}
