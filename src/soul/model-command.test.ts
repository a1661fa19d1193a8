import { describe, expect, it } from 'vitest';
import { contextSizeLabel, describeModelChoice, parseModelArgs, switchedText } from './model-command.js';

describe('/model', () => {
  it('parses an alias and a thinking flag, and refuses what makes no sense', () => {
    expect(parseModelArgs('')).toEqual({ alias: null, thinking: undefined });
    expect(parseModelArgs(' other ')).toEqual({ alias: 'other', thinking: undefined });
    expect(parseModelArgs('other --thinking')).toEqual({ alias: 'other', thinking: true });
    expect(parseModelArgs('--no-thinking other')).toEqual({ alias: 'other', thinking: false });
    for (const bad of ['--thinking', 'a b', 'a --thinking --no-thinking', 'a --fast'])
      expect(parseModelArgs(bad)).toBeNull();
  });

  it('labels context sizes the way people say them', () => {
    expect(contextSizeLabel(262144)).toBe('256k');
    expect(contextSizeLabel(1_000_000)).toBe('1M');
    expect(contextSizeLabel(50000)).toBe('50k');
    expect(contextSizeLabel(800)).toBe('800');
  });

  it('lists a model with what it is and whether it thinks, never more', () => {
    const choice = {
      alias: 'k2',
      model: 'kimi-k2',
      provider: 'moonshot',
      maxContextSize: 262144,
      thinking: 'optional' as const,
      current: true,
    };
    expect(describeModelChoice(choice, true)).toBe(
      '* k2: kimi-k2 (provider moonshot, context 256k, thinking on)',
    );
    expect(describeModelChoice({ ...choice, current: false, thinking: 'none' }, true)).toBe(
      '  k2: kimi-k2 (provider moonshot, context 256k)',
    );
    expect(describeModelChoice({ ...choice, thinking: 'always' }, false)).toContain('always thinks');
  });

  it('says whether the switch was saved as the default', () => {
    expect(switchedText('k2', false, null)).toBe(
      'Using the model k2 (thinking off) for this session from now on; saved as the default.',
    );
    expect(switchedText('k2', true, 'no file')).toContain('not saved as the default: no file.');
  });
});
