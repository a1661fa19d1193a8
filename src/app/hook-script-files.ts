import { splitWords } from '../policy/command-secret-paths.js';
import { filesNamedByWords, pathOfWord } from './files-named-by-words.js';
import { type NamedScript, scriptWords } from './script-words.js';

/**
 * The files the person's hook commands name (`./scripts/format.sh`, `bash .kimi/hooks/check.sh`,
 * `node hooks/notify.mjs`): every word that, quotes removed, names an existing file, relative to the
 * work dir (where hooks run) or absolute, `~/` expanded. Real paths. Hooks run outside the sandbox,
 * so the sandbox keeps these read-only where they lie inside the workspace
 * (src/policy/sandbox-agent-code.ts). What a launcher started by name reads (`npm run lint`: package.json)
 * is found by launcher-reads.ts; what a script or tool loads in turn (a formatter's config) is not: the
 * README says so.
 */
export function hookScriptFiles(commands: readonly string[], workDir: string, home: string): string[] {
  const files = new Set<string>();
  for (const command of commands)
    for (const file of filesNamedByWords(splitWords(command), workDir, home)) files.add(file);
  return [...files];
}

/**
 * The paths of the scripts the hook commands run (`sh scripts/hook.sh`, `./bin/check`), as given,
 * whether they exist or not: what src/app/named-script-holds.ts holds when a name is not a plain file.
 */
export function hookScriptPaths(commands: readonly string[], workDir: string, home: string): NamedScript[] {
  return commands.flatMap((command) =>
    scriptWords(splitWords(command)).map(({ word, interpreter }) => ({
      path: pathOfWord(word, workDir, home),
      interpreter,
    })),
  );
}
