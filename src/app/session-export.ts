import { loadConfig } from '../config/load-config.js';
import { defaultConfig } from '../config/schema.js';
import type { SecretRegistry } from '../policy/secrets.js';
import { writeSessionZip } from '../session/archive/write-session-zip.js';
import type { Session } from '../session/session.js';
import { readSessionState } from '../session/state.js';
import { loadContextBytes } from '../soul/context/load-context-file.js';
import { VERSION } from '../version.js';
import { addLoginSecrets, collectSecrets } from './collect-secrets.js';
import { conversationMarkdown } from './conversation-markdown.js';

/** Where an export finds the config whose secrets it redacts. */
export interface ExportConfig {
  home: string;
  env: Readonly<Record<string, string | undefined>>;
  configFile?: string | undefined;
  /** `--config` text: its keys are secrets too. */
  inlineConfig?: string | undefined;
}

/** Every secret the config knows of, OAuth tokens (kimi-ts login, MCP OAuth) included. */
async function exportSecrets(options: ExportConfig): Promise<SecretRegistry> {
  const config = await loadConfig(options).then(
    (loaded) => loaded.config,
    () => defaultConfig(),
  );
  const secrets = collectSecrets(config, options.env);
  await addLoginSecrets(secrets, config, options.home);
  return secrets;
}

/**
 * A session as Markdown (what `kimi-ts export` writes and the web server's export serves): its
 * history from `contextBytes` (the bytes of context.jsonl), with every secret the config knows of
 * redacted, even in a session written before its keys were known as secret.
 */
export async function sessionMarkdown(
  session: Session,
  contextBytes: Buffer,
  options: ExportConfig,
): Promise<string> {
  const state = await readSessionState(session.stateFile);
  const secrets = await exportSecrets(options);
  return conversationMarkdown(secrets.redactDeep(loadContextBytes(contextBytes).history), {
    title: secrets.redact(state.custom_title ?? 'kimi-ts session'),
    sessionId: session.id,
    workDir: session.workDir,
    exportedAt: new Date(),
  });
}

/** The session folder as a ZIP; every file's text redacted again with the secrets the config knows. */
export async function sessionZip(
  session: Session,
  options: ExportConfig & { output: string; overwrite: boolean },
): Promise<void> {
  const secrets = await exportSecrets(options);
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
