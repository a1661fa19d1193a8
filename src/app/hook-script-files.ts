import { splitWords } from '../policy/command-secret-paths.js';
import { filesNamedByWords } from './files-named-by-words.js';

/**
 * The files the person's hook commands name (`./scripts/format.sh`, `bash .kimi/hooks/check.sh`,
 * `node hooks/notify.mjs`): every word that, quotes removed, names an existing file, relative to the
 * work dir (where hooks run) or absolute, `~/` expanded. Real paths. Hooks run outside the sandbox,
 * so the sandbox keeps these read-only where they lie inside the workspace
 * (src/policy/sandbox-agent-code.ts). What a script reads in turn (what `npm run` runs, a formatter's
 * config) is not seen here: the README says so.
 */
export function hookScriptFiles(commands: readonly string[], workDir: string, home: string): string[] {
  const files = new Set<string>();
  for (const command of commands)
    for (const file of filesNamedByWords(splitWords(command), workDir, home)) files.add(file);
  return [...files];
}
