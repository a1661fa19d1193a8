import { existsSync, lstatSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isWithinDirectory } from '../util/path-within.js';
import { gitfileTarget } from './nested-git.js';
import { type AgentCode, agentCodeHolds, NO_AGENT_CODE } from './sandbox-agent-code.js';
import { realSource } from './sandbox-bind-fds.js';
import { kimiCodeFolders, kimiNpmConfigFiles } from './sandbox-kimi-code.js';
import { isWorkspaceNpmrc } from './sandbox-npx-names.js';

/**
 * Folders inside a writable workspace that stay read-only in the sandbox, for commands and file
 * tools alike: what is written there runs later, outside any sandbox, when the person uses git
 * (`.git/hooks`, `core.fsmonitor` in `.git/config`, a `commondir` pointing elsewhere: so the whole
 * `.git`), or changes what the agent may do (`.kimi-ts/`: rules, hooks, skills).
 */
export const PROTECTED_NAMES: readonly string[] = ['.git', '.kimi-ts'];

/** A folder's own kimi-ts configuration (its rules file, hooks, skills): `<folder>/.kimi-ts`. */
export const PROJECT_CONFIG_FOLDER = '.kimi-ts';

/** The protected paths of one writable root. */
export function protectedPaths(root: string): string[] {
  return PROTECTED_NAMES.map((name) => join(root, name));
}

/**
 * Whether the sandbox lets a write reach `realPath`: inside a writable root (real paths), not in one
 * of its protected folders, not in kimi-ts's own code (src/policy/sandbox-kimi-code.ts) and not in the
 * agent spec's files, its tool code or the hooks' scripts (`agentCode`, src/policy/sandbox-agent-code.ts).
 */
export function sandboxWritable(
  realPath: string,
  realRoots: readonly string[],
  agentCode: AgentCode = NO_AGENT_CODE,
): boolean {
  const inside = (path: string) => isWithinDirectory(realPath, path);
  return (
    realRoots.some((root) => isWithinDirectory(realPath, root) && !protectedPaths(root).some(inside)) &&
    !kimiCodeFolders(realRoots).some(inside) &&
    !kimiNpmConfigFiles(realRoots).includes(realPath) &&
    !isWorkspaceNpmrc(realPath, realRoots) &&
    !agentCodeHolds(agentCode, realRoots).some(inside)
  );
}

/**
 * The protected names made (empty) where missing, so a command cannot create them with content of its
 * own. Not `.git`: an empty folder in the person's tree (tools that look for a `.git` take it for a
 * repository root) that a `git init` they ask for could not fill; a git folder a command makes is
 * cleaned after it instead (src/policy/new-git-dirs.ts).
 */
const MADE_WHEN_MISSING: ReadonlySet<string> = new Set([PROJECT_CONFIG_FOLDER]);

/**
 * Binds the protected folders of a writable root read-only; `.kimi-ts` is made (empty) first where it
 * does not exist, and recorded. A gitfile `.git` (`gitdir: …`) is bound with the folder it names
 * when that folder is inside the root.
 */
export function ensureProtected(root: string, placeholders: Set<string>, names = PROTECTED_NAMES): string[] {
  const args: string[] = [];
  if (!existsSync(root)) return args;
  for (const name of names) {
    const path = join(root, name);
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (stat === undefined && (!MADE_WHEN_MISSING.has(name) || !makePlaceholder(path, placeholders)))
      continue;
    // A symlinked `.git` is bound where it leads, resolved here: a bind source has no symlink in it
    // (sandbox-bind-fds.ts refuses one), and bwrap checks a descriptor's mount point is the object
    // itself (the link then leads to the read-only folder). A dangling one: nothing to protect now;
    // what a command puts where it leads is cleaned after it (src/policy/new-git-dirs.ts).
    const real = stat?.isSymbolicLink() ? realSource(path) : path;
    if (real !== null) args.push('--ro-bind', real, real);
    const gitdir = stat?.isFile() ? gitfileTarget(path) : null;
    if (gitdir !== null && isWithinDirectory(gitdir, root)) args.push('--ro-bind', gitdir, gitdir);
  }
  return args;
}

/**
 * Makes `path` an empty folder, recorded in `placeholders` (removed when the sandbox is disposed, if
 * still empty). False when it cannot be made here: then a command cannot make it either.
 */
export function makePlaceholder(path: string, placeholders: Set<string>): boolean {
  try {
    mkdirSync(path);
    placeholders.add(path);
    return true;
  } catch {
    return false;
  }
}

/** Makes `path` an empty file, recorded like a folder placeholder; false when it cannot be made. */
export function makePlaceholderFile(path: string, placeholders: Set<string>): boolean {
  try {
    writeFileSync(path, '', { flag: 'wx' });
    placeholders.add(path);
    return true;
  } catch {
    return false;
  }
}
