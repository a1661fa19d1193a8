import { homedir } from 'node:os';
import type { Config } from '../../config/schema.js';
import type { Extension } from '../extension.js';
import { listPlugins, pluginsDir } from './plugin-manager.js';
import { pluginTool } from './plugin-tool.js';

/** What a plugin may ask to be given: the default model's provider key and URL (read at call time). */
export function hostValues(config: Config): Record<string, string> {
  const model = config.default_model ? config.models[config.default_model] : undefined;
  const provider = model ? config.providers[model.provider] : undefined;
  const values: Record<string, string> = {};
  if (provider?.api_key) values.api_key = provider.api_key;
  if (provider?.base_url) values.base_url = provider.base_url;
  return values;
}

/**
 * The tools of the installed plugins (`kimi-ts plugin install`), added after the agent's own: a
 * plugin tool named like one already there is left out, with a note on stderr.
 */
export function pluginsExtension(options: { report?: (text: string) => void } = {}): Extension {
  return {
    name: 'plugins',
    async setup() {},
    async afterToolsLoaded({ toolset, config, env, deps }) {
      const dir = pluginsDir(env.HOME || homedir());
      for (const { dir: pluginDir, spec } of await listPlugins(dir)) {
        for (const tool of spec.tools) {
          if (toolset.find(tool.name)) {
            options.report?.(
              `Plugin ${spec.name}: tool ${tool.name} is not added; a tool of that name exists.\n`,
            );
            continue;
          }
          toolset.add(
            pluginTool({
              spec: tool,
              pluginName: spec.name,
              pluginDir,
              inject: spec.inject,
              hostValues: () => hostValues(config),
              // Without the session's secrets: a plugin gets the keys its `inject` names, no others.
              env: deps.processEnv ?? env,
              sandbox: deps.commandSandbox,
            }),
          );
        }
      }
    },
  };
}
