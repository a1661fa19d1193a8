import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { kimiTsHome } from '../config/home.js';
import { listSessions } from '../session/list.js';
import { readMetadata } from '../session/metadata.js';
import { isValidSessionId, sessionAt } from '../session/session.js';
import { printWarning } from './print-warning.js';
import { markRunCompleted } from './run-completed.js';
import { openAgentSessionFromFlags, type SessionFlags } from './session-options.js';

/** The flags of `kimi-ts acp`: its own and the main command's, the same for every front end. */
export type AcpCommandOptions = SessionFlags;

/**
 * `kimi-ts acp`: serves editors over the Agent Client Protocol on stdio. Each session the client
 * opens is a kimi-ts session in the client's working directory, with the MCP servers the client
 * passes added to the configured ones. Returns the exit code.
 */
export async function runAcpCommand(
  options: AcpCommandOptions,
  io: { input: Readable; output: Writable } = { input: process.stdin, output: process.stdout },
): Promise<number> {
  const { runAcpServer } = await import('../ui/acp/acp-server.js');
  const env = process.env;
  const home = kimiTsHome(env);
  const knownWorkDirs = async () =>
    (await readMetadata(home)).work_dirs.filter((e) => e.kaos === 'local').map((e) => e.path);
  try {
    return await runAcpServer({
      ...io,
      deleteSession: async (sessionId) => {
        if (!isValidSessionId(sessionId)) return false;
        for (const workDir of await knownWorkDirs()) {
          const session = sessionAt(home, workDir, sessionId);
          if (!existsSync(session.dir)) continue;
          await rm(session.dir, { recursive: true, force: true });
          return true;
        }
        return false;
      },
      listSessions: async (cwd) => {
        const workDirs = cwd !== null ? [resolve(cwd)] : await knownWorkDirs();
        const found = (await Promise.all(workDirs.map((workDir) => listSessions({ home, workDir })))).flat();
        return found
          .sort((a, b) => b.updatedAt - a.updatedAt)
          .map(({ session, title, updatedAt }) => ({
            sessionId: session.id,
            cwd: session.workDir,
            title,
            updatedAt: new Date(updatedAt).toISOString(),
          }));
      },
      openSession: async ({ cwd, mcpConfig, sessionId, additionalDirs }) => {
        if (sessionId !== undefined) {
          if (!isValidSessionId(sessionId)) return null;
          if (!existsSync(sessionAt(home, resolve(cwd), sessionId).contextFile)) return null;
        }
        // The client's folders and MCP servers come on top of the command line's.
        return openAgentSessionFromFlags(options, {
          home,
          env,
          workDir: resolve(cwd),
          sessionId,
          addDirs: additionalDirs,
          mcpConfigs: mcpConfig ? [mcpConfig] : [],
          onWarning: printWarning,
        });
      },
    });
  } finally {
    markRunCompleted();
  }
}
