import { homedir } from 'node:os';
import { Command } from 'commander';
import { loadConfig } from '../../config/load-config.js';
import { installPlugin, listPlugins, pluginsDir, removePlugin } from './plugin-manager.js';
import { PluginError } from './plugin-spec.js';
import { hostValues } from './plugins-extension.js';

/**
 * `kimi-ts plugin install|list|remove|info`: plugins live in `~/.config/agents/plugins/<name>/`
 * (shared with other agents using that layout); their tools join every session after kimi-ts's own.
 */
export function buildPluginCommand(options: {
  env: Readonly<Record<string, string | undefined>>;
  home: string;
  /** The config whose default provider a plugin may be given (default: the usual config file). */
  configFile?: string | undefined;
  write: (text: string) => void;
}): Command {
  const { env, write } = options;
  const dir = () => pluginsDir(env.HOME || homedir());
  const program = new Command('kimi-ts plugin').description('manage plugins: install, list, remove, info');
  program
    .command('install')
    .description('install a plugin from a folder or a git repository')
    .argument('<source>', 'a folder holding plugin.json, or a git URL')
    .action(async (source: string) => {
      const { config } = await loadConfig({ configFile: options.configFile, env, home: options.home });
      const spec = await installPlugin(source, {
        pluginsDir: dir(),
        hostValues: hostValues(config),
        cwd: process.cwd(),
      });
      write(
        `Installed ${spec.name} ${spec.version} (${spec.tools.length} tool${spec.tools.length === 1 ? '' : 's'}) in ${dir()}.\n`,
      );
    });
  program
    .command('list')
    .description('list the installed plugins')
    .action(async () => {
      const plugins = await listPlugins(dir());
      write(
        plugins.length === 0
          ? `No plugins installed (in ${dir()}).\n`
          : `${plugins
              .map(
                ({ spec }) =>
                  `${spec.name} ${spec.version}${spec.description ? ` — ${spec.description}` : ''}`,
              )
              .join('\n')}\n`,
      );
    });
  program
    .command('info')
    .description('show a plugin and its tools')
    .argument('<name>')
    .action(async (name: string) => {
      const plugin = (await listPlugins(dir())).find((p) => p.spec.name === name);
      if (!plugin) throw new PluginError(`No plugin named "${name}" is installed (in ${dir()}).`);
      const { spec } = plugin;
      const lines = [
        `${spec.name} ${spec.version}`,
        ...(spec.description ? [spec.description] : []),
        `folder: ${plugin.dir}`,
        ...(spec.runtime ? [`installed by: ${spec.runtime.host} ${spec.runtime.host_version}`] : []),
        `tools:${spec.tools.length === 0 ? ' none' : ''}`,
        ...spec.tools.map(
          (t) => `  ${t.name}: ${t.description || '(no description)'} — runs ${t.command.join(' ')}`,
        ),
      ];
      write(`${lines.join('\n')}\n`);
    });
  program
    .command('remove')
    .description('remove an installed plugin')
    .argument('<name>')
    .action(async (name: string) => {
      await removePlugin(name, dir());
      write(`Removed ${name}.\n`);
    });
  return program;
}
