import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILTIN_PREFIX, resolveToolModule } from '../toolset/loading/module-resolution.js';
import { realOrGiven } from '../util/real-or-given.js';
import type { AgentSpec } from './agent-spec.js';

/**
 * The files of an agent spec that decide what kimi-ts loads and runs at its next start: the spec
 * and the specs it extends, its system prompt, its subagents' specs, and the file of each tool module
 * it names (not kimi-ts's own, `kimi-ts/…`; a package that does not resolve from the spec's folder is
 * left to kimi-ts's own dependencies). Real paths. The sandbox keeps them read-only where they lie
 * inside the workspace (src/policy/sandbox-agent-code.ts).
 */
export function agentCodeFiles(spec: AgentSpec): string[] {
  const files = [
    ...spec.specFiles,
    spec.systemPromptPath,
    ...Object.values(spec.subagents).map((s) => s.path),
  ];
  for (const tool of spec.tools) {
    const module = tool.slice(0, tool.lastIndexOf(':'));
    if (module.startsWith(BUILTIN_PREFIX)) continue;
    try {
      const url = resolveToolModule(module, { baseDir: dirname(spec.file) });
      if (url.startsWith('file:')) files.push(fileURLToPath(url));
    } catch {
      // Not found: the tool loader says so when it loads the tools; nothing here to keep read-only.
    }
  }
  return [...new Set(files.map(realOrGiven))];
}
