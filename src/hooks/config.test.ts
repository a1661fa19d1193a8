import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { HookConfigError, hookConfigSchema, parseHookConfigs } from './config.js';

describe('hookConfigSchema', () => {
  it('fills in the defaults of matcher and timeout', () => {
    expect(hookConfigSchema.parse({ event: 'Stop', command: './check.sh' })).toEqual({
      event: 'Stop',
      command: './check.sh',
      matcher: '',
      timeout: 30,
    });
  });

  it.each([
    ['an unknown event', { event: 'BeforeTool', command: 'x' }, 'event'],
    ['an empty command', { event: 'Stop', command: '   ' }, 'command'],
    ['a missing command', { event: 'Stop' }, 'command'],
    ['a timeout below 1', { event: 'Stop', command: 'x', timeout: 0 }, 'timeout'],
    ['a timeout above 600', { event: 'Stop', command: 'x', timeout: 601 }, 'timeout'],
    ['a fractional timeout', { event: 'Stop', command: 'x', timeout: 1.5 }, 'timeout'],
    ['an invalid regex', { event: 'PreToolUse', command: 'x', matcher: 'Shell(' }, 'matcher'],
  ])('rejects %s', (_name, entry, field) => {
    const parsed = hookConfigSchema.safeParse(entry);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.path[0])).toContain(field);
  });

  it('accepts the bounds of the timeout range', () => {
    expect(hookConfigSchema.parse({ event: 'Stop', command: 'x', timeout: 1 }).timeout).toBe(1);
    expect(hookConfigSchema.parse({ event: 'Stop', command: 'x', timeout: 600 }).timeout).toBe(600);
  });
});

describe('parseHookConfigs', () => {
  it('reads the [[hooks]] entries of a config file', () => {
    const toml = parseToml(`
[[hooks]]
event = "PreToolUse"
matcher = "Shell"
command = ".kimi/hooks/safety-check.sh"
timeout = 10

[[hooks]]
event = "PostToolUse"
matcher = "WriteFile|StrReplaceFile"
command = "prettier --write ."
`);
    expect(parseHookConfigs(toml.hooks)).toEqual([
      { event: 'PreToolUse', matcher: 'Shell', command: '.kimi/hooks/safety-check.sh', timeout: 10 },
      {
        event: 'PostToolUse',
        matcher: 'WriteFile|StrReplaceFile',
        command: 'prettier --write .',
        timeout: 30,
      },
    ]);
  });

  it('treats a missing section as no hooks', () => {
    expect(parseHookConfigs(undefined)).toEqual([]);
    // A JSON config's `"hooks": null` too, and an empty list is no hooks.
    expect(parseHookConfigs(null)).toEqual([]);
    expect(parseHookConfigs([])).toEqual([]);
  });

  it('still refuses a section that is not a list', () => {
    expect(() => parseHookConfigs({ event: 'Stop', command: 'x' })).toThrow(HookConfigError);
    expect(() => parseHookConfigs('Stop')).toThrow(HookConfigError);
  });

  it('names the bad entry, its event and command, and the regex problem', () => {
    const entries = [
      { event: 'Stop', command: 'ok.sh' },
      { event: 'PreToolUse', command: 'guard.sh', matcher: '(Write' },
    ];
    let error: unknown;
    try {
      parseHookConfigs(entries);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(HookConfigError);
    const message = (error as HookConfigError).message;
    expect(message).toContain('hooks[1] (event "PreToolUse", command "guard.sh") field matcher');
    expect(message).toContain('"(Write"');
    expect(message).toContain('not a valid regular expression');
    expect(message).not.toContain('hooks[0]');
  });

  it('lists every bad entry at once', () => {
    expect(() =>
      parseHookConfigs([
        { event: 'Nope', command: 'a' },
        { event: 'Stop', command: 'b', timeout: 9999 },
      ]),
    ).toThrow(
      /hooks\[0\] \(event "Nope", command "a"\) field event[\s\S]*hooks\[1\] \(event "Stop", command "b"\) field timeout/,
    );
  });

  it('rejects a hooks value that is not an array', () => {
    expect(() => parseHookConfigs({ event: 'Stop' })).toThrow(HookConfigError);
  });
});
