import { lstatSync } from 'node:fs';
import { dirname } from 'node:path';
import { isWithinDirectory } from '../util/path-within.js';

/**
 * Code and specs kimi-ts runs or loads outside any sandbox, named by real path:
 * - `byFolder`: the files the agent spec loaded (the spec, the specs it extends, its system prompt,
 *   its subagents' specs) and the tool modules it names, which kimi-ts loads into its own process at
 *   the next start: each held with its folder (the description files and helpers beside a module,
 *   the prompt beside a spec);
 * - `byFile`: the scripts the person's hooks name (`./scripts/format.sh`), which run at the next
 *   event, and those the person's stdio MCP servers name (`sh mcp/server.sh`), which run at the next
 *   start: each held by itself (its folder is the project's);
 * - `madeWhenMissing`: folders held by themselves, made (empty) at the sandbox's start and at each
 *   command's launch where they do not exist, so a command cannot create them (removed at its end if
 *   still empty): the `.kimi-ts/`
 *   of the other trusted folders, whose rules a session started there puts in force with no question,
 *   and the first missing folder of a script name a hook or MCP server runs
 *   (src/app/named-script-holds.ts).
 */
export interface AgentCode {
  readonly byFolder: readonly string[];
  readonly byFile: readonly string[];
  readonly madeWhenMissing: readonly string[];
  /**
   * Files held by themselves, made (empty) at the sandbox's start and at each command's launch where
   * they do not exist: a config file the repository's git config includes (git reads an empty one as
   * it does a missing one).
   */
  readonly emptyWhenMissing?: readonly string[];
  /**
   * The work-tree files and folders git's config names now, each held by itself: includes and the
   * `core.hooksPath` folder (src/policy/git-config-holds.ts), read again when a config changes;
   * the configs of the nested repositories whose work trees are given are read too.
   */
  readonly gitConfigNamed?: (nestedWorkTrees: readonly string[]) => readonly string[];
  /**
   * What git's config names and does not exist now (heldPlaceholders in git-config-holds.ts), the
   * nested repositories' configs included: made, like the two lists above, at the sandbox's start
   * and again at each command's launch (a config changed since, a folder added with `/add-dir`,
   * another session's placeholder removed at its end, a nested repository found), then held by
   * `gitConfigNamed`.
   */
  /**
   * Symlinks at the top of a writable root that the next session follows to its rules (a trusted
   * folder entry `current -> v1`, a linked `.kimi-ts`): a bind cannot hold a link, so each is put
   * back after each command that changed it (sandbox-kept-names.ts).
   */
  readonly keptLinks?: () => readonly string[];
  readonly gitPlaceholders?: (nestedWorkTrees: readonly string[]) => {
    readonly folders: readonly string[];
    readonly files: readonly string[];
  };
}

export const NO_AGENT_CODE: AgentCode = { byFolder: [], byFile: [], madeWhenMissing: [] };

/**
 * What of the agent's code lies in a folder commands may write (`--agent-file agent/agent.yaml`
 * naming a tool module `./word-count.mjs`, a hook running `./scripts/format.sh`): the paths the
 * sandbox keeps read-only, for commands and file tools alike. A command that changed them would run
 * code of its own outside the sandbox, through kimi-ts. A file of `byFolder` at the top of a root is
 * held by itself: the whole workspace would otherwise be read-only. Only what lies inside a root;
 * the outermost of nested holds.
 */
export function agentCodeHolds(
  agentCode: AgentCode,
  realWritableRoots: readonly string[],
  /** The work trees of the repositories nested in the roots (the sandbox's nested-git walk). */
  nestedWorkTrees: readonly string[] = [],
): string[] {
  const { byFolder, madeWhenMissing } = agentCode;
  const byFile = [
    ...agentCode.byFile,
    ...(agentCode.emptyWhenMissing ?? []),
    ...(agentCode.gitConfigNamed?.(nestedWorkTrees) ?? []),
  ];
  if (byFolder.length === 0 && byFile.length === 0 && madeWhenMissing.length === 0) return [];
  const holds = new Set<string>();
  const inRoot = (file: string) =>
    realWritableRoots.some((root) => file !== root && isWithinDirectory(file, root));
  for (const file of byFolder) {
    if (!inRoot(file)) continue;
    const folder = dirname(file);
    holds.add(realWritableRoots.includes(folder) ? file : folder);
  }
  for (const path of [...byFile, ...madeWhenMissing]) if (inRoot(path)) holds.add(path);
  const list = [...holds];
  return list.filter(
    (path, i) => !list.some((other, j) => j !== i && other !== path && isWithinDirectory(path, other)),
  );
}

/**
 * bubblewrap's arguments that keep those holds read-only: each bound onto itself. One that is gone,
 * or is a symlink, is left out (nothing of the agent's is there then).
 */
export function agentCodeReadOnly(holds: readonly string[]): string[] {
  const args: string[] = [];
  for (const path of holds) {
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (stat === undefined || stat.isSymbolicLink()) continue;
    args.push('--ro-bind', path, path);
  }
  return args;
}
