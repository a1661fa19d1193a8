import { lstatSync } from 'node:fs';
import { isWithinDirectory } from '../util/path-within.js';
import type { AgentCode } from './sandbox-agent-code.js';
import { makePlaceholder, makePlaceholderFile } from './sandbox-protected.js';

/**
 * Makes (empty) what the agent's code and git's config name inside a writable root and does not
 * exist, recording each made in `placeholders` (removed when the sandbox is disposed, if still
 * empty): called at the sandbox's start and again before each command's binds are decided, as
 * `.kimi-ts/` is (ensureProtected). Once at the start was not enough: another session in the same
 * folder removes its own placeholder at its end (this session, having found it there, held it as the
 * person's), a folder added with `/add-dir` or a config changed since names new ones.
 * One lstat per name when all exist.
 */
export function makeAgentPlaceholders(
  agentCode: AgentCode | undefined,
  roots: readonly string[],
  placeholders: Set<string>,
): void {
  if (agentCode === undefined) return;
  const git = agentCode.gitPlaceholders?.();
  const inRoot = (path: string) => roots.some((root) => path !== root && isWithinDirectory(path, root));
  const missing = (path: string) => inRoot(path) && lstatSync(path, { throwIfNoEntry: false }) === undefined;
  for (const folder of [...agentCode.madeWhenMissing, ...(git?.folders ?? [])])
    if (missing(folder)) makePlaceholder(folder, placeholders);
  for (const file of [...(agentCode.emptyWhenMissing ?? []), ...(git?.files ?? [])])
    if (missing(file)) makePlaceholderFile(file, placeholders);
}
