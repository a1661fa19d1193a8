import { homedir } from 'node:os';
import type { Config } from '../../config/schema.js';
import type { KimiToolset } from '../../toolset/kimi-toolset.js';
import type { ToolDependencyTable } from '../../toolset/loading/dependencies.js';
import { defineExtension } from '../extension.js';
import type { WarningSink } from '../session-warning.js';
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
 * plugin tool named like one already there is left out, with a warning.
 */
export function pluginsExtension() {
  return defineExtension({
    name: 'plugins',
    uses: ['toolset', 'config', 'env', 'warn', 'rootDeps'],
    async setup({ toolset, config, env, warn, rootDeps }) {
      return { afterToolsLoaded: () => addPluginTools(toolset, config, env, warn, rootDeps) };
    },
  });
}

async function addPluginTools(
  toolset: KimiToolset,
  config: Config,
  env: Readonly<Record<string, string | undefined>>,
  warn: WarningSink,
  rootDeps: Readonly<ToolDependencyTable>,
): Promise<void> {
  const dir = pluginsDir(env.HOME || homedir());
  for (const { dir: pluginDir, spec } of await listPlugins(dir)) {
    for (const tool of spec.tools) {
      if (toolset.find(tool.name)) {
        warn({ kind: 'plugin-tool-skipped', plugin: spec.name, tool: tool.name });
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
          env: rootDeps.processEnv ?? env,
          sandbox: rootDeps.commandSandbox,
        }),
      );
    }
  }
}
