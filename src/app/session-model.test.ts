import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load-config.js';
import { readSessionState } from '../session/state.js';
import type { SoulLLM } from '../soul/soul-parts.js';
import { SessionModel } from './session-model.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kimi-ts-session-model-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const scripted = { type: '_scripted_echo', env: { KIMI_TS_SCRIPTS: '[]' } };

async function open(options: { alias?: string; savedAlias?: string | null; defaultModel?: string } = {}) {
  const { config } = await loadConfig({
    inlineConfig: JSON.stringify({
      default_model: options.defaultModel ?? 'text',
      providers: { p: scripted },
      models: {
        text: { provider: 'p', model: 'text-model', max_context_size: 1000, capabilities: [] },
        vision: { provider: 'p', model: 'vision-model', max_context_size: 2000, capabilities: ['image_in'] },
      },
    }),
  });
  return SessionModel.open({
    config,
    configSource: { kind: 'inline' },
    env: {},
    home: dir,
    sessionId: 's1',
    stateFile: join(dir, 'state.json'),
    alias: options.alias,
    savedAlias: options.savedAlias ?? null,
  });
}

describe('SessionModel', () => {
  it('takes --model first, then the saved alias when the config still has it, then the default', async () => {
    expect((await open({ alias: 'vision', savedAlias: 'text' })).alias).toBe('vision');
    expect((await open({ savedAlias: 'vision' })).alias).toBe('vision');
    expect((await open({ savedAlias: 'gone' })).alias).toBe('text');
  });

  it('shows the capabilities of the model in use to whoever holds them, without refilling a set', async () => {
    const model = await open();
    const held = model.capabilities;
    const before = model.llm;
    const switched: SoulLLM[] = [];
    model.onSwitch((llm) => switched.push(llm));
    expect(held.has('image_in')).toBe(false);

    await model.select('vision');

    expect(held.has('image_in')).toBe(true);
    expect([...held]).toEqual(['image_in']);
    expect(held.size).toBe(1);
    // The old model's LLM is replaced whole, not changed.
    expect(before?.capabilities.has('image_in')).toBe(false);
    expect(switched).toEqual([model.llm]);
    expect(model.llm?.provider.modelName).toBe('vision-model');
    expect(model.llm?.maxContextSize).toBe(2000);
    expect(model.list().find((choice) => choice.current)?.alias).toBe('vision');
    expect((await readSessionState(join(dir, 'state.json'))).model_alias).toBe('vision');
  });

  it('refuses an alias the config does not have, and keeps the model', async () => {
    const model = await open();
    const refused = model.select('missing');
    await expect(refused).rejects.toThrow("unknown model alias 'missing'; configured: text, vision");
    await expect(refused).rejects.toMatchObject({
      name: 'ModelSwitchError',
      alias: 'missing',
      reason: 'unknown_alias',
    });
    expect(model.alias).toBe('text');
  });

  it('builds another model for a subagent without switching its own', async () => {
    const model = await open();
    const other = await model.llmForAlias('vision');
    expect(other?.capabilities.has('image_in')).toBe(true);
    expect(model.alias).toBe('text');
    expect(await model.llmForAlias('missing')).toBeNull();
  });

  it('says how to configure a model when none is usable', async () => {
    const model = await open({ defaultModel: '' });
    expect(model.llm).toBeNull();
    expect(model.llmNotSetMessage).not.toBe('');
    expect(model.capabilities.size).toBe(0);
  });

  describe('thinking, and the choice saved as the default', () => {
    const toml = [
      '# my config',
      'default_model = "text"',
      '[providers.p]',
      'type = "_scripted_echo"',
      'api_key = "sk-do-not-touch"',
      '[providers.p.env]',
      'KIMI_TS_SCRIPTS = "[]"',
      '[models.text]',
      'provider = "p"',
      'model = "text-model"',
      'max_context_size = 1000',
      '[models.think]',
      'provider = "p"',
      'model = "think-model"',
      'max_context_size = 262144',
      'capabilities = ["thinking"]',
      '[models.deep]',
      'provider = "p"',
      'model = "deep-model"',
      'max_context_size = 2000',
      'capabilities = ["always_thinking"]',
      '',
    ].join('\n');
    async function openFile(savedThinking: boolean | null = null, thinking?: boolean) {
      const path = join(dir, 'config.toml');
      await writeFile(path, toml);
      const { config, source } = await loadConfig({ configFile: path });
      const model = await SessionModel.open({
        ...{ config, configSource: source, env: {}, home: dir, sessionId: 's1', thinking },
        ...{ stateFile: join(dir, 'state.json'), alias: undefined, savedAlias: null, savedThinking },
      });
      return { model, path };
    }

    it('lists context sizes and which models think, never a key', async () => {
      const { model } = await openFile();
      expect(model.list().map((m) => [m.alias, m.maxContextSize, m.thinking])).toEqual([
        ['text', 1000, 'none'],
        ['think', 262144, 'optional'],
        ['deep', 2000, 'always'],
      ]);
      expect(JSON.stringify(model.list())).not.toContain('sk-do-not-touch');
    });

    it('switches thinking on and off where it is optional, keeps it in the state, and saves the default', async () => {
      const { model, path } = await openFile();
      const on = await model.select('think', { thinking: true, saveAsDefault: true });
      expect(on).toEqual({ alias: 'think', thinking: true, savedTo: path, notSaved: null });
      expect(model.thinking).toBe(true);
      expect(model.llm?.provider.thinkingEffort).toBe('high');
      expect(await readFile(path, 'utf8')).toBe(
        `default_thinking = true\n${toml.replace('default_model = "text"', 'default_model = "think"')}`,
      );
      const state = await readSessionState(join(dir, 'state.json'));
      expect([state.model_alias, state.model_thinking]).toEqual(['think', true]);

      const off = await model.select('think', { thinking: false });
      expect(off).toMatchObject({ thinking: false, savedTo: null, notSaved: null });
      expect(model.llm?.provider.thinkingEffort).toBe('off');
      // A model without thinking never thinks; one that always thinks always does.
      expect((await model.select('text', { thinking: true })).thinking).toBe(false);
      expect((await model.select('deep', { thinking: false })).thinking).toBe(true);
    });

    it('takes --thinking before the choice saved in the session', async () => {
      expect((await openFile(true)).model.thinking).toBe(false);
      const { model } = await openFile(true);
      await model.select('think');
      expect(model.thinking).toBe(true);
      const flagged = (await openFile(true, false)).model;
      await flagged.select('think');
      expect(flagged.thinking).toBe(false);
    });
  });

  it('says why the default was not saved with an inline config', async () => {
    const model = await open();
    const switched = await model.select('vision', { saveAsDefault: true });
    expect(switched.savedTo).toBeNull();
    expect(switched.notSaved).toContain('--config');
  });
});
