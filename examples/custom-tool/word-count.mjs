// A user-written tool for kimi-ts: plain JavaScript, no imports. Everything comes from the kit the
// loader injects (defineTool, zod as `z`, result helpers, SkipThisTool, the description loader), and
// the dependencies it declares (here the working directory and the values for `${VAR}` placeholders).
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';

export const WordCount = {
  dependencies: ['workDir', 'descriptionVars'],
  async create({ workDir, descriptionVars }, { defineTool, z, toolOk, toolError, loadToolDescription }) {
    return defineTool({
      name: 'WordCount',
      description: await loadToolDescription(new URL('./word-count.md', import.meta.url), descriptionVars),
      params: z.object({
        path: z.string().describe('File to count, relative to the working directory or absolute'),
      }),
      // Reading only: the toolset runs it without asking. A tool with side effects declares
      // 'writes-files', 'runs-commands', 'network' or 'external', and the toolset then asks the user
      // before every call, whatever the tool's code does.
      effect: 'read-only',
      async call({ path }, { signal }) {
        let text;
        try {
          text = await readFile(resolve(workDir, path), { encoding: 'utf8', signal });
        } catch (error) {
          return toolError(`Cannot read ${path}: ${error.message}`, 'Read failed');
        }
        const words = text.split(/\s+/).filter(Boolean).length;
        const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
        return toolOk(`${words} words, ${lines} lines`, `Counted ${path}.`);
      },
    });
  },
};
