import { toolFactory } from '../loading/dependencies.js';

/** A built-in-style tool module for loader tests: typed dependencies, the toolkit, a description file. */
export const EchoTool = toolFactory(
  ['workDir', 'descriptionVars'],
  async ({ workDir, descriptionVars }, kit) =>
    kit.defineTool({
      name: 'EchoBack',
      description: await kit.loadToolDescription(new URL('./echo-tool.md', import.meta.url), descriptionVars),
      params: kit.z.object({ text: kit.z.string() }),
      effect: 'read-only',
      call: ({ text }) => kit.toolOk(`${text} @ ${workDir}`),
    }),
);
