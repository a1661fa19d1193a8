/**
 * The `GIT_*` assignments the parts before part `i` of a command line leave in the environment of
 * the git that part `i` runs: `export GIT_DIR=sub/.git; git log -p`, `declare -x GIT_DIR=…`, or
 * `GIT_DIR=sub/.git; git log -p` (a bare assignment reaches git when the variable was exported
 * before). An assignment before a command is that command's only, and is not here. Taken whatever
 * the parts between (a subshell, a branch not taken): one more repository judged is no harm.
 */
export function gitVariablesBefore(splits: readonly (readonly string[])[], i: number): string[] {
  const found: string[] = [];
  for (let k = 0; k < i; k++) {
    const words = splits[k]!;
    // One text search for most parts.
    if (!words.some((word) => word.startsWith('GIT_'))) continue;
    let w = 0;
    if (DECLARERS.has(words[0] ?? '')) for (w = 1; words[w]?.startsWith('-'); ) w++;
    const assignments = words.slice(w).filter((word) => ASSIGNMENT.test(word));
    // Assignments alone, or all of a declarer's words: the shell's own variables.
    if (w === 0 && assignments.length !== words.length) continue;
    for (const word of assignments) if (word.startsWith('GIT_')) found.push(word);
  }
  return found;
}

/** The `GIT_*` variables the git of part `i` runs with: those the parts before it leave, then its own before `git`. */
export function gitVariablesOfPart(splits: readonly (readonly string[])[], i: number): string[] {
  const found = gitVariablesBefore(splits, i);
  for (const word of splits[i]!) {
    if (word === 'git' || word.endsWith('/git')) break;
    if (word.startsWith('GIT_') && word.includes('=')) found.push(word);
  }
  return found;
}

/** Builtins that set (and export) variables. */
const DECLARERS: ReadonlySet<string> = new Set(['export', 'declare', 'typeset', 'local', 'readonly']);

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
