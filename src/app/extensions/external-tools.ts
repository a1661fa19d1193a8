import { registerExternalTools } from '../../toolset/external-tool.js';
import type { Extension } from '../extension.js';

/** Lets a wire client register tools it runs itself (`initialize.external_tools`). */
export function externalToolsExtension(): Extension {
  return {
    name: 'external-tools',
    async setup({ toolset, host }) {
      host.setExternalToolRegistrar((specs) => registerExternalTools(toolset, specs));
    },
  };
}
