import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export type Env = Readonly<Record<string, string | undefined>>;

/**
 * The folder kimi-ts keeps its own data in (config, sessions, metadata): `$KIMI_TS_HOME`, else
 * `$KIMI_SHARE_DIR` (what Moonshot's `@moonshot-ai/kimi-agent-sdk` sets from its `shareDir` option,
 * so a program built on it finds the sessions it made), else `~/.kimi-ts`. Never Kimi CLI's
 * `~/.kimi` by default, so both programs can be used side by side.
 */
export function kimiTsHome(env: Env = process.env): string {
  const override = env.KIMI_TS_HOME?.trim() || env.KIMI_SHARE_DIR?.trim();
  if (override) return resolve(override);
  return join(env.HOME?.trim() || homedir(), '.kimi-ts');
}

/** The config file read when neither `--config-file` nor `--config` is given. */
export function defaultConfigFile(home: string): string {
  return join(home, 'config.toml');
}
