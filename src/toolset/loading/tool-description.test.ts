import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fillPlaceholders, loadToolDescription, loadToolDescriptionSync } from './tool-description.js';

/** `${NAME}` written without tripping the linter's template-in-string check. */
const ph = (name: string): string => `\${${name}}`;

describe('tool descriptions', () => {
  it('fills placeholders, keeps unknown ones and bare $VAR literally', () => {
    const template = `In ${ph('KIMI_WORK_DIR')}: run echo $HOME ${ph('NOPE')}`;
    expect(fillPlaceholders(template, { KIMI_WORK_DIR: '/repo' })).toBe(
      `In /repo: run echo $HOME ${ph('NOPE')}`,
    );
  });

  it('reads the .md beside a tool', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kimi-ts-desc-'));
    try {
      const file = join(dir, 'shell.md');
      await writeFile(file, `\nRuns a command with ${ph('KIMI_SHELL')}.\n`);
      expect(await loadToolDescription(file, { KIMI_SHELL: 'bash' })).toBe('Runs a command with bash.');
      expect(loadToolDescriptionSync(file)).toBe(`Runs a command with ${ph('KIMI_SHELL')}.`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
