import { lstatSync, rmdirSync, unlinkSync } from 'node:fs';
import { isWithinDirectory } from '../util/path-within.js';
import { type AgentCode, agentCodeHolds, NO_AGENT_CODE } from './sandbox-agent-code.js';
import { nestedWorkTrees } from './sandbox-git-dirs.js';
import type { HeldNamesRegistry } from './sandbox-held-registry.js';
import { makePlaceholder, makePlaceholderFile, protectedPaths } from './sandbox-protected.js';

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
  const git = agentCode.gitPlaceholders?.([]);
  const inRoot = (path: string) => roots.some((root) => path !== root && isWithinDirectory(path, root));
  const missing = (path: string) => inRoot(path) && lstatSync(path, { throwIfNoEntry: false }) === undefined;
  for (const folder of [...agentCode.madeWhenMissing, ...(git?.folders ?? [])])
    if (missing(folder)) makePlaceholder(folder, placeholders);
  for (const file of [...(agentCode.emptyWhenMissing ?? []), ...(git?.files ?? [])])
    if (missing(file)) makePlaceholderFile(file, placeholders);
}

/**
 * Removes the placeholders a sandbox made, when it is disposed and no command of it runs: each only
 * if still empty (nothing anyone put there is removed: a folder, or an empty `.npmrc`), the last made
 * first (one made inside an earlier one goes before the folder holding it). One another live session
 * holds (`held`: it found it there and binds it) stays, empty, recorded for the last session out,
 * which removes those left for it too (sandbox-held-registry.ts).
 */
export function removeAgentPlaceholders(
  placeholders: ReadonlySet<string>,
  held: HeldNamesRegistry | null,
): void {
  const left: string[] = [];
  for (const path of [...[...placeholders].reverse(), ...(held?.takeOrphans() ?? [])]) {
    if (held?.heldByOthers(path)) {
      left.push(path);
      continue;
    }
    try {
      const stat = lstatSync(path, { throwIfNoEntry: false });
      if (stat?.isDirectory()) rmdirSync(path);
      else if (stat?.isFile() && stat.size === 0) unlinkSync(path);
    } catch {
      // gone, or someone put something in it
    }
  }
  held?.leave(left);
  held?.dispose();
}

/**
 * What a session's commands hold read-only that another session may have made as a placeholder: each
 * root's `.kimi-ts` and `.git`, the agent's code and what git's config names (agentCodeHolds), the
 * placeholders it made.
 */
export function heldNames(
  agentCode: AgentCode | undefined,
  roots: readonly string[],
  placeholders: ReadonlySet<string>,
): string[] {
  return [
    ...new Set([
      ...roots.flatMap(protectedPaths),
      ...agentCodeHolds(agentCode ?? NO_AGENT_CODE, roots),
      ...placeholders,
    ]),
  ];
}

/**
 * `agentCode` for one launch, with the nested repositories its reading found (`sub/.git` paths): what
 * git's config names asked once, the first time it is wanted (after the placeholders are made), for
 * the registry and the binds alike. Each ask reads the configs' stamps (GitConfigHolds) and lstats
 * the names (git-config-link-holds.ts); the placeholders' ask and the names' pass the same list of
 * nested work trees, which GitConfigHolds reads as one reading within the launch's synchronous stretch.
 */
export function agentCodeForLaunch(
  agentCode: AgentCode | undefined,
  nestedGit: ReadonlyMap<string, readonly string[]> = new Map(),
): AgentCode | undefined {
  const named = agentCode?.gitConfigNamed;
  const placeholders = agentCode?.gitPlaceholders;
  if (agentCode === undefined || (named === undefined && placeholders === undefined)) return agentCode;
  let asked: readonly string[] | undefined;
  const trees = nestedWorkTrees(nestedGit);
  return {
    ...agentCode,
    ...(named && { gitConfigNamed: () => (asked ??= named(trees)) }),
    ...(placeholders && { gitPlaceholders: () => placeholders(trees) }),
  };
}
