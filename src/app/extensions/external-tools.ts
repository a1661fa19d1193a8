import { registerExternalTools } from '../../toolset/external-tool.js';
import { defineExtension } from '../extension.js';

/** Lets a wire client register tools it runs itself (`initialize.external_tools`). */
export function externalToolsExtension() {
  return defineExtension({
    name: 'external-tools',
    uses: ['toolset'],
    async setup({ toolset }) {
      return { externalTools: (specs) => registerExternalTools(toolset, specs) };
    },
  });
}
