import { loadScripts } from '../kosong/providers/scripted/index.js';

/**
 * Scripts for the scripted test provider: `KIMI_TS_SCRIPTS` or Kimi CLI's `KIMI_SCRIPTED_ECHO_SCRIPTS`
 * (a JSON array file or a `---`-separated text file), from the provider's `env` table or the process.
 */
export async function loadScriptedScripts(
  providerEnv: Readonly<Record<string, string>>,
  env: Readonly<Record<string, string | undefined>>,
): Promise<string[]> {
  const source =
    providerEnv.KIMI_TS_SCRIPTS ??
    providerEnv.KIMI_SCRIPTED_ECHO_SCRIPTS ??
    env.KIMI_TS_SCRIPTS ??
    env.KIMI_SCRIPTED_ECHO_SCRIPTS;
  return source ? loadScripts(source) : [];
}
