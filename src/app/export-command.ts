import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { kimiTsHome } from '../config/home.js';
import { loadConfig } from '../config/load-config.js';
import { defaultConfig } from '../config/schema.js';
import { writeSessionZip } from '../session/archive/write-session-zip.js';
import { continueSession } from '../session/list.js';
import { type Session, SessionError, sessionAt } from '../session/session.js';
import { resolveSessionId, SessionIdError } from '../session/session-id-match.js';
import { readSessionState } from '../session/state.js';
import { loadContextBytes } from '../soul/context/load-context-file.js';
import { VERSION } from '../version.js';
import { addLoginSecrets, collectSecrets } from './collect-secrets.js';
import { conversationMarkdown } from './conversation-markdown.js';

/**
 * A session as Markdown (what `kimi-ts export` writes and the web server's export serves): its
 * history from `contextBytes` (the bytes of context.jsonl), with every secret the config knows of
 * redacted, even in a session written before its keys were known as secret.
 */
export async function sessionMarkdown(
  session: Session,
  contextBytes: Buffer,
  options: {
    home: string;
    env: Readonly<Record<string, string | undefined>>;
    configFile?: string | undefined;
    /** `--config` text: its keys are secrets too. */
    inlineConfig?: string | undefined;
  },
): Promise<string> {
  const state = await readSessionState(session.stateFile);
  const config = await loadConfig({
    env: options.env,
    home: options.home,
    configFile: options.configFile,
    inlineConfig: options.inlineConfig,
  }).then(
    (loaded) => loaded.config,
    () => defaultConfig(),
  );
  const secrets = collectSecrets(config, options.env);
  // OAuth tokens (kimi-ts login, MCP OAuth) are secrets too.
  await addLoginSecrets(secrets, config, options.home);
  return conversationMarkdown(secrets.redactDeep(loadContextBytes(contextBytes).history), {
    title: secrets.redact(state.custom_title ?? 'kimi-ts session'),
    sessionId: session.id,
    workDir: session.workDir,
    exportedAt: new Date(),
  });
}

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
    const bytes = await readFile(session.contextFile).catch(() => {
      throw new SessionError(`There is no session ${session.id} in ${workDir}.`);
    });
    if (options.zip || /\.zip$/i.test(options.output ?? '')) {
      const output = resolve(options.output ?? `kimi-ts-session-${session.id}.zip`);
      await exportZip(session, { home, output, overwrite: Boolean(options.overwrite) });
      options.error(`Wrote session ${session.id} to ${output}.\n`);
      return 0;
    }
    const markdown = await sessionMarkdown(session, bytes, { home, env: process.env });
    if (options.output) {
      await writeFile(resolve(options.output), markdown, 'utf8');
      options.error(`Wrote session ${session.id} to ${resolve(options.output)}.\n`);
    } else {
      options.write(markdown);
    }
    return 0;
  } catch (error) {
    options.error(`${error instanceof Error ? error.message : String(error)}\n`);
    return error instanceof SessionIdError ? 2 : 1;
  }
}

/** The session folder as a ZIP; every file's text redacted again with the secrets the config knows. */
async function exportZip(
  session: Session,
  options: { home: string; output: string; overwrite: boolean },
): Promise<void> {
  const env = process.env;
  const config = await loadConfig({ env, home: options.home }).then(
    (loaded) => loaded.config,
    () => defaultConfig(),
  );
  const secrets = collectSecrets(config, env);
  await addLoginSecrets(secrets, config, options.home);
  const state = await readSessionState(session.stateFile);
  await writeSessionZip({
    sessionId: session.id,
    sessionDir: session.dir,
    workDir: session.workDir,
    title: state.custom_title ?? null,
    output: options.output,
    overwrite: options.overwrite,
    kimiTsVersion: VERSION,
    redact: (text) => secrets.redact(text),
  });
}
