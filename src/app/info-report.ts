import { defaultConfigFile } from '../config/home.js';
import { INLINE_SOURCE, loadConfig } from '../config/load-config.js';
import { VERSION } from '../version.js';

/** `kimi-ts info`: versions and protocols, and where this run reads its config, keeps its data, and which model it uses. */
export async function infoReport(options: {
  home: string;
  env: NodeJS.ProcessEnv;
  configFile?: string | undefined;
  inlineConfig?: string | undefined;
}): Promise<Record<string, string | number[]>> {
  const configFile =
    options.inlineConfig !== undefined
      ? INLINE_SOURCE
      : (options.configFile ?? defaultConfigFile(options.home));
  // A config that does not load still gets an answer: `doctor` says what is wrong with it.
  const defaultModel = await loadConfig({
    configFile: options.configFile,
    inlineConfig: options.inlineConfig,
    env: options.env,
    home: options.home,
  }).then(
    ({ config }) =>
      config.default_model ||
      (options.env.KIMI_MODEL_NAME ? `(KIMI_MODEL_NAME=${options.env.KIMI_MODEL_NAME})` : '(none)'),
    () => '(the config does not load: run kimi-ts doctor)',
  );
  return {
    version: VERSION,
    wire_protocol_version: '1.10',
    agent_spec_versions: [1],
    node: process.version,
    config_file: configFile,
    home: options.home,
    default_model: defaultModel,
  };
}
