import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { ScriptedCli } from './scripted-cli.js';
import { toolResults } from './stream-json.js';

/**
 * Runs each command form (VICTIM replaced by its own folder) in one step of a print-mode --yolo
 * session with a `Shell(rm -rf*)` deny rule; resolves with the forms whose folder is gone.
 */
export async function formsThatDeleted(
  cli: ScriptedCli,
  forms: readonly string[],
  /** Lays out what the forms need in the work folder before the run (a package.json, a bin). */
  prepare?: (workDir: string) => Promise<void>,
): Promise<string[]> {
  const { sandbox } = await cli.setup(
    [
      {
        toolCalls: forms.map((form, i) => ({
          id: `d${i}`,
          name: 'Shell',
          args: { command: form.replaceAll('VICTIM', `v${i}`) },
        })),
      },
      { text: 'done' },
    ],
    { extraToml: '[[permission.rules]]\ndecision = "deny"\npattern = "Shell(rm -rf*)"\n' },
  );
  for (let i = 0; i < forms.length; i++) {
    await mkdir(join(sandbox.workDir, `v${i}`));
    await writeFile(join(sandbox.workDir, `v${i}`, 'keep.txt'), 'still here\n');
  }
  await prepare?.(sandbox.workDir);
  const result = await sandbox.run(['--print', '--yolo', '--output-format', 'stream-json', '-p', 'clean up']);
  expect(result.code).toBe(0);
  expect(toolResults(result.stdout)).toHaveLength(forms.length);
  return forms.filter((_, i) => !existsSync(join(sandbox.workDir, `v${i}`)));
}
