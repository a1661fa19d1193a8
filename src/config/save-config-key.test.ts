import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { saveConfigKey, saveConfigKeys } from './save-config-key.js';

const tempFile = async (name: string, text?: string) => {
  const path = join(await mkdtemp(join(tmpdir(), 'save-config-')), name);
  if (text !== undefined) await writeFile(path, text, { mode: 0o600 });
  return path;
};

describe('saveConfigKey', () => {
  it('replaces the top-level line and keeps comments, tables and permissions', async () => {
    const path = await tempFile(
      'config.toml',
      '# mine\ntheme = "dark" # was dark\ndefault_model = "m"\n\n[models.m]\ntheme = "not this one"\n',
    );
    await saveConfigKey(path, 'theme', 'light');
    expect(await readFile(path, 'utf8')).toBe(
      '# mine\ntheme = "light"\ndefault_model = "m"\n\n[models.m]\ntheme = "not this one"\n',
    );
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('adds the key at the top when it is only inside a table, or the file is missing', async () => {
    const path = await tempFile('config.toml', '[models.m]\ntheme = "x"\n');
    await saveConfigKey(path, 'theme', 'light');
    expect(await readFile(path, 'utf8')).toBe('theme = "light"\n[models.m]\ntheme = "x"\n');
    const missing = await tempFile('new.toml');
    await saveConfigKey(missing, 'theme', 'light');
    expect(await readFile(missing, 'utf8')).toBe('theme = "light"\n');
  });

  it('sets several keys in one write, booleans as TOML booleans, the API key line untouched', async () => {
    const text =
      'default_model = "a"\n[providers.p]\napi_key = "sk-secret" # keep\n[models.a]\nprovider = "p"\n';
    const path = await tempFile('config.toml', text);
    await saveConfigKeys(path, { default_model: 'b', default_thinking: true });
    expect(await readFile(path, 'utf8')).toBe(`default_thinking = true\n${text.replace('"a"', '"b"')}`);
    await saveConfigKeys(path, { default_thinking: false });
    expect(await readFile(path, 'utf8')).toContain('default_thinking = false\ndefault_model = "b"\n');
  });

  it('edits JSON configs as JSON', async () => {
    const path = await tempFile('config.json', '{"default_model": "m"}');
    await saveConfigKey(path, 'theme', 'light');
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ default_model: 'm', theme: 'light' });
  });

  it('refuses (and leaves the file) when the text edit would change another value', async () => {
    // The "theme =" line sits inside a multi-line string: replacing it would change that string.
    const text = 'note = """\ntheme = 1\n"""\n';
    const path = await tempFile('config.toml', text);
    await expect(saveConfigKey(path, 'theme', 'light')).rejects.toThrow(/not changed/);
    expect(await readFile(path, 'utf8')).toBe(text);
  });

  it('refuses a broken file without quoting it', async () => {
    const path = await tempFile('config.toml', 'api_key = "sk-secret\n');
    const error = await saveConfigKey(path, 'theme', 'light').catch((e: Error) => e);
    expect(String(error)).toMatch(/not a valid config/);
    expect(String(error)).not.toContain('sk-secret');
  });
});
