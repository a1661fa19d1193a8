/**
 * Telling a mistyped command from a prompt. `kimi-ts "fix the bug"` is a prompt; `kimi-ts sesions`
 * is `sessions` mistyped. The rule (also in `--help`): one word, lower-case letters and dashes,
 * within 2 edits of a command's name (1 edit for names of 4 letters or fewer, so `fix` is not taken
 * for `vis`) is a mistyped command; anything else, and anything with a space, is a prompt.
 */
export function mistypedCommand(words: readonly string[], commands: readonly string[]): string | null {
  const [word] = words;
  if (words.length !== 1 || word === undefined || !/^[a-z][a-z-]*$/.test(word)) return null;
  let best: { name: string; distance: number } | null = null;
  for (const name of commands) {
    const distance = editDistance(word, name);
    const allowed = name.length <= 4 ? 1 : 2;
    if (distance > allowed) continue;
    if (best === null || distance < best.distance) best = { name, distance };
  }
  return best?.name ?? null;
}

/** Levenshtein distance, with a swap of two neighbours counting as one edit (`sesisons`). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => d[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, at(i - 2, j - 2) + 1);
      const row = d[i];
      if (row) row[j] = value;
    }
  }
  return at(a.length, b.length);
}
