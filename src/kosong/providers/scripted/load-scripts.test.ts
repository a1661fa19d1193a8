import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../generate.js';
import { message } from '../../message.js';
import { loadScripts, splitScripts } from './load-scripts.js';
import { ScriptedProvider } from './scripted-provider.js';

describe('loading scripts', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kimi-ts-scripts-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads a JSON array of script strings from a file', async () => {
    const path = join(dir, 'scripts.json');
    await writeFile(path, JSON.stringify(['id: a\ntext: first', 'text: second']));
    expect(await loadScripts(path)).toEqual(['id: a\ntext: first', 'text: second']);
  });

  it('reads a text file whose scripts are separated by --- lines, and drives a provider with it', async () => {
    const path = join(dir, 'scripts.txt');
    await writeFile(path, 'text: first\n---\r\ntext: second\ntext: --- not a separator\n---  \n\n---\n');
    const scripts = await loadScripts(path);
    expect(scripts).toHaveLength(2);
    const provider = new ScriptedProvider(scripts);
    const history = [message('user', 'go')];
    expect((await generate(provider, '', [], history)).message.content).toEqual([
      { type: 'text', text: 'first' },
    ]);
    expect((await generate(provider, '', [], history)).message.content).toEqual([
      { type: 'text', text: 'second--- not a separator' },
    ]);
  });

  it('takes text that is not a file path as the scripts themselves', async () => {
    expect(await loadScripts('text: a\n---\ntext: b')).toEqual(['text: a\n', '\ntext: b']);
    expect(await loadScripts(join(dir, 'missing.txt'))).toEqual([join(dir, 'missing.txt')]);
  });

  it('rejects a JSON file that is not an array of strings, naming the file', async () => {
    const path = join(dir, 'bad.json');
    await writeFile(path, '[1, 2]');
    await expect(loadScripts(path)).rejects.toThrow(
      `Invalid scripts file ${path}: expected a JSON array of script strings.`,
    );
    expect(() => splitScripts('[not json')).toThrow(/^Invalid scripts: not valid JSON/);
  });
});
