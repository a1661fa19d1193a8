import { constants, copyFileSync, lstatSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gitfileTarget } from './nested-git.js';
import { type AgentCode, agentCodeHolds } from './sandbox-agent-code.js';
import { PROJECT_CONFIG_FOLDER } from './sandbox-protected.js';

/** How many files of one held folder are looked at (a held scripts folder can be large). */
const MAX_FILES_PER_FOLDER = 2000;

/**
 * The sandbox holds some files read-only by their path: a writable root's `.git` and `.kimi-ts`, the
 * agent's code and the scripts hooks and MCP servers run (sandbox-protected.ts, sandbox-agent-code.ts).
 * A hard link of one of them elsewhere in the workspace (a tarball can carry one) is the same file
 * under a writable name: `>> docs/notes.md` appended an allow-everything rule to the rules file, and a
 * hook to `.git/hooks/pre-commit`. Each such file gets a copy of its own here, at the session's start,
 * before any command runs (same bytes and mode, renamed over it): the other names keep the old file.
 * A command cannot make a new hard link of a held file (link(2) across mounts fails with EXDEV).
 * Returns the files given a copy of their own.
 */
export function breakHeldHardLinks(realRoots: readonly string[], agentCode: AgentCode): string[] {
  const broken: string[] = [];
  const visit = (path: string, depth: number, budget: { left: number }): void => {
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (stat === undefined || stat.isSymbolicLink()) return;
    if (stat.isFile()) {
      if (stat.nlink > 1 && ownCopy(path)) broken.push(path);
      return;
    }
    if (!stat.isDirectory() || depth === 0) return;
    let names: string[];
    try {
      names = readdirSync(path);
    } catch {
      return;
    }
    for (const name of names) {
      if (budget.left-- <= 0) return;
      visit(join(path, name), depth - 1, budget);
    }
  };
  for (const root of realRoots) {
    visit(join(root, PROJECT_CONFIG_FOLDER), 8, { left: MAX_FILES_PER_FOLDER });
    const git = join(root, '.git');
    const gitDir = lstatSync(git, { throwIfNoEntry: false })?.isFile() ? gitfileTarget(git) : git;
    if (gitDir === null) continue;
    // What runs code when git runs: the config and the files beside it, the hooks, info/attributes.
    visit(gitDir, 1, { left: MAX_FILES_PER_FOLDER });
    visit(join(gitDir, 'hooks'), 1, { left: MAX_FILES_PER_FOLDER });
    visit(join(gitDir, 'info'), 1, { left: MAX_FILES_PER_FOLDER });
  }
  for (const held of agentCodeHolds(agentCode, realRoots)) visit(held, 8, { left: MAX_FILES_PER_FOLDER });
  return broken;
}

/** Replaces `file` with a copy of itself (mode kept): the file's other names no longer reach it. */
function ownCopy(file: string): boolean {
  const copy = `${file}.kimi-ts-own-${process.pid}`;
  try {
    // Never over something already there; the copy gets the file's mode.
    copyFileSync(file, copy, constants.COPYFILE_EXCL);
    renameSync(copy, file);
    return true;
  } catch {
    rmSync(copy, { force: true });
    return false;
  }
}
