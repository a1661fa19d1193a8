import { access } from 'node:fs/promises';
import { resolve } from 'node:path';
import { kimiTsHome } from '../config/home.js';
import { continueSession } from '../session/list.js';
import { SessionError, sessionAt } from '../session/session.js';
import { resolveSessionId, SessionIdError } from '../session/session-id-match.js';
import { commandLineExportChecks, writeExportFile } from './export-file.js';
import { SessionCatalog } from './session-catalog.js';

/**
 * `kimi-ts export [session-id] [-o file]`: a session of the working directory (the latest when no
 * id is given) as Markdown, on stdout or into a file: for sharing a run, or keeping what a CI run
 * did. With `--zip` (or an output ending in `.zip`) the session folder itself, as a ZIP that
 * `kimi-ts vis` imports. Returns the exit code.
 */
export async function exportCommand(options: {
  sessionId?: string | undefined;
  output?: string | undefined;
  workDir?: string | undefined;
  /** A ZIP of the session folder instead of Markdown (also when `output` ends in `.zip`). */
  zip?: boolean | undefined;
  /** `-y`: a ZIP replaces a file that is there. */
  overwrite?: boolean | undefined;
  write: (text: string) => void;
  error: (text: string) => void;
}): Promise<number> {
  const home = kimiTsHome(process.env);
  const workDir = resolve(options.workDir ?? process.cwd());
  try {
    const session =
      options.sessionId === undefined
        ? await continueSession({ home, workDir })
        : sessionAt(home, workDir, await resolveSessionId({ home, workDir }, options.sessionId));
    await access(session.contextFile).catch(() => {
      throw new SessionError(`There is no session ${session.id} in ${workDir}.`);
    });
    const catalog = new SessionCatalog(home, { env: process.env });
    if (options.zip || /\.zip$/i.test(options.output ?? '')) {
      const output = resolve(options.output ?? `kimi-ts-session-${session.id}.zip`);
      await catalog.exportZip(session, { output, overwrite: Boolean(options.overwrite) });
      options.error(`Wrote session ${session.id} to ${output}.\n`);
      return 0;
    }
    const markdown = await catalog.exportMarkdown(session);
    if (options.output) {
      const written = await writeExportFile(options.output, markdown, commandLineExportChecks(process.env));
      switch (written.kind) {
        case 'refused':
          options.error(`${written.problem}\n`);
          return 1;
        case 'written':
          options.error(`Wrote session ${session.id} to ${written.file}.\n`);
          break;
      }
    } else {
      options.write(markdown);
    }
    return 0;
  } catch (error) {
    options.error(`${error instanceof Error ? error.message : String(error)}\n`);
    return error instanceof SessionIdError ? 2 : 1;
  }
}
