export class PluginError extends Error {
  override name = 'PluginError';
}
