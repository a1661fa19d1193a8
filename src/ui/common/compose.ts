import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childProcess } from '../../util/child-process.js';
import { withTrustedPath } from '../../util/path-entries.js';

/** The continuation prompt of a line ended with a backslash. */
export const CONTINUATION_PROMPT = '… ';

/** A line ending in `\` continues on the next: the backslash becomes a line break. */
export function continues(line: string): boolean {
  return line.endsWith('\\');
}

/**
 * `/editor`: writes `draft` to a temporary file, opens it in `$VISUAL` or `$EDITOR` (vi when neither
 * is set) on the terminal, and returns what was saved (trimmed; null when the editor failed or left
 * it empty). The shell hands the terminal over while the editor runs.
 */
export function composeInEditor(
  env: Readonly<Record<string, string | undefined>>,
  draft = '',
): { text: string | null; error?: string } {
  const dir = mkdtempSync(join(tmpdir(), 'kimi-ts-compose-'));
  const file = join(dir, 'prompt.md');
  try {
    writeFileSync(file, draft);
    const editor = env.VISUAL || env.EDITOR || 'vi';
    // Through the shell, so an editor given with arguments (`code --wait`) works as people write it.
    const result = childProcess().spawnSync(`${editor} "$KIMI_TS_COMPOSE_FILE"`, {
      shell: true,
      stdio: 'inherit',
      // The editor is found on PATH's trusted entries (src/util/path-entries.ts): a `.` would open the work tree's own `vi`.
      env: { ...withTrustedPath(env), KIMI_TS_COMPOSE_FILE: file },
    });
    if (result.error || result.status !== 0) {
      return {
        text: null,
        error: `The editor (${editor}) ${result.error ? `could not start: ${result.error.message}` : `exited with ${result.status}`}.`,
      };
    }
    const text = readFileSync(file, 'utf8').trim();
    return { text: text || null };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
