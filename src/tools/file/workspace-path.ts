import { homedir } from 'node:os';
import { isAbsolute, relative, resolve } from 'node:path';
import { type ToolReturnValue, toolError } from '../../kosong/index.js';

/** Where file tools may work without an absolute path: the work dir and the user's additional dirs. */
export interface Workspace {
  readonly workDir: string;
  readonly additionalDirs: readonly string[];
}

/** What the caller does with the file; it appears in the "not an absolute path" message. */
export type PathPurpose = 'read' | 'write' | 'edit';

export type ResolvedPath =
  | {
      ok: true;
      /** Absolute and normalised. */
      path: string;
      /** Outside the work dir and every additional dir. */
      outsideWorkspace: boolean;
    }
  | { ok: false; error: ToolReturnValue };

/** `~` and `~/x` name the user's home; anything else is returned unchanged. */
export function expandHome(path: string): string {
  if (path === '~') return homedir();
  if (path.startsWith('~/')) return resolve(homedir(), path.slice(2));
  return path;
}

/** True when `path` is `dir` or lies below it (both absolute; compared lexically). */
export function isWithinDirectory(path: string, dir: string): boolean {
  const rel = relative(resolve(dir), resolve(path));
  return rel === '' || (rel !== '..' && !rel.startsWith('../') && !isAbsolute(rel));
}

export function isInWorkspace(path: string, workspace: Workspace): boolean {
  return [workspace.workDir, ...workspace.additionalDirs].some((dir) => isWithinDirectory(path, dir));
}

/**
 * Resolves a path the model gave: `~` expanded, relative paths taken from the work dir. A relative
 * path that lands outside the workspace is refused: the model must spell out an absolute path to
 * touch anything outside, so a stray `../` cannot do it by accident.
 */
export function resolveToolPath(input: string, workspace: Workspace, purpose: PathPurpose): ResolvedPath {
  const expanded = expandHome(input);
  const path = resolve(workspace.workDir, expanded);
  const outsideWorkspace = !isInWorkspace(path, workspace);
  if (outsideWorkspace && !isAbsolute(expanded)) {
    return {
      ok: false,
      error: toolError(
        `\`${input}\` is not an absolute path. You must provide an absolute path to ${purpose} a file outside the working directory.`,
        'Invalid path',
      ),
    };
  }
  return { ok: true, path, outsideWorkspace };
}

export function emptyPathError(): ToolReturnValue {
  return toolError('File path cannot be empty.', 'Empty file path');
}
