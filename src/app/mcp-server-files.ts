import { resolve } from 'node:path';
import type { McpServers } from '../mcp/config.js';
import { filesNamedByWords, pathOfWord } from './files-named-by-words.js';
import type { Launch } from './launcher-holds.js';
import { type NamedScript, scriptWords } from './script-words.js';

/**
 * The files the stdio MCP servers' commands name (`sh mcp/server.sh`, `node ./tools/mcp.mjs`): every
 * word of `command` and `args` that names an existing file, relative to the server's `cwd` (itself
 * relative to kimi-ts's own folder, where a server without one starts). Real paths. MCP servers start
 * outside the sandbox at every session start, so the sandbox keeps these read-only where they lie
 * inside the workspace, like a hook's script (src/policy/sandbox-agent-code.ts).
 */
export function mcpServerFiles(servers: McpServers, launchDir: string, home: string): string[] {
  const files = new Set<string>();
  for (const { words, cwd } of stdioCommands(servers, launchDir))
    for (const file of filesNamedByWords(words, cwd, home)) files.add(file);
  return [...files];
}

/**
 * The paths of the scripts the stdio servers run (`sh mcp/server.sh`, `./bin/server`), as given,
 * whether they exist or not: what src/app/named-script-holds.ts holds when a name is not a plain file.
 */
export function mcpScriptPaths(servers: McpServers, launchDir: string, home: string): NamedScript[] {
  return stdioCommands(servers, launchDir).flatMap(({ words, cwd }) =>
    scriptWords(words).map(({ word, interpreter }) => ({ path: pathOfWord(word, cwd, home), interpreter })),
  );
}

/** The stdio servers' commands, for what their launchers read (`npm run mcp`, launcher-holds.ts). */
export function mcpLaunches(servers: McpServers, launchDir: string): Launch[] {
  return stdioCommands(servers, launchDir).map(({ name, words, cwd }) => ({
    starter: `the MCP server ${name}`,
    words,
    cwd,
  }));
}

/** Each stdio server's command words and the folder it starts in (kimi-ts's own unless it gives a cwd). */
function stdioCommands(
  servers: McpServers,
  launchDir: string,
): { name: string; words: string[]; cwd: string }[] {
  return Object.entries(servers).flatMap(([name, server]) =>
    server.kind === 'stdio'
      ? [
          {
            name,
            words: [server.command, ...server.args],
            cwd: server.cwd === undefined ? launchDir : resolve(launchDir, server.cwd),
          },
        ]
      : [],
  );
}
