import { type Effect, type ReadAccess, resolveFileTarget } from '../../policy/index.js';
import { type PathPurpose, resolveToolPath, type Workspace } from './workspace-path.js';

/**
 * The effect of a file tool's call on `input`, with its real path. None when the call will be
 * refused before touching anything (an empty path, a relative path leading outside).
 */
export async function fileEffects(
  input: string,
  workspace: Workspace,
  purpose: PathPurpose,
  access: ReadAccess = 'read',
): Promise<Effect[]> {
  if (!input) return [];
  const resolved = resolveToolPath(input, workspace, purpose);
  if (!resolved.ok) return [];
  const target = await resolveFileTarget(input, workspace.workDir);
  return purpose === 'read' ? [{ kind: 'read', target, access }] : [{ kind: 'write', target }];
}
