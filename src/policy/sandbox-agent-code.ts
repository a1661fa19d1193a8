import { lstatSync } from 'node:fs';
import { dirname } from 'node:path';
import { isWithinDirectory } from '../util/path-within.js';

/**
 * The agent's own specs and tool code when they lie in a folder commands may write (`--agent-file
 * agent/agent.yaml` naming a tool module `./word-count.mjs`): what the sandbox keeps read-only, for
 * commands and file tools alike. kimi-ts loads a spec's tool modules into its own process at the
 * next start, outside any sandbox, and the spec says which modules to load: a command that changed
 * either would run code of its own there.
 *
 * `agentFiles`: the real paths of the files the agent spec loaded (the spec, the specs it extends,
 * its system prompt, its subagents' specs) and of the tool modules it names. Each is held by its
 * folder (the description files and helpers beside a module, the prompt beside a spec), or by itself
 * when its folder is a writable root: a spec at the workspace's top would otherwise make the whole
 * workspace read-only. Only what lies inside a root; the outermost of nested holds.
 */
export function agentCodeHolds(
  agentFiles: readonly string[],
  realWritableRoots: readonly string[],
): string[] {
  if (agentFiles.length === 0) return [];
  const holds = new Set<string>();
  for (const file of agentFiles) {
    if (!realWritableRoots.some((root) => file !== root && isWithinDirectory(file, root))) continue;
    const folder = dirname(file);
    holds.add(realWritableRoots.includes(folder) ? file : folder);
  }
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
