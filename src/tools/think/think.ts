import { toolFactory } from '../../toolset/loading/dependencies.js';

/** A scratchpad: the thought stays in the conversation, nothing else happens. */
export const Think = toolFactory([], async (_deps, kit) =>
  kit.defineTool({
    name: 'Think',
    description: await kit.loadToolDescription(new URL('./think.md', import.meta.url)),
    params: kit.z.object({ thought: kit.z.string().describe('What you are thinking through.') }),
    effect: 'read-only',
    call: () => kit.toolOk('', 'Thought logged'),
  }),
);
