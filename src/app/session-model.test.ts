import { mkdtemp, rm } from 'node:fs/promises';
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
    await expect(refused).rejects.toThrow('No model "missing" in the config (models: text, vision).');
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
});
