import { describe, expect, it } from 'vitest';
import { PermissionRule } from './permission-rule.js';
import { RuleSet, type RuleSubject } from './rule-set.js';
import { parseShellCommand } from './shell-command.js';

function rules(...specs: [decision: 'allow' | 'deny' | 'ask', pattern: string][]): RuleSet {
  return new RuleSet(
    specs.map(
      ([decision, pattern], i) => new PermissionRule({ decision, pattern }, { file: 't', index: i + 1 }),
    ),
  );
}

async function subject(command: string, toolName = 'Shell'): Promise<RuleSubject> {
  const parsed = await parseShellCommand(command);
  return {
    toolName,
    candidates: [command.trim()],
    commandParts: parsed.analysed,
    commandIncomplete: parsed.incomplete,
  };
}

describe('RuleSet verdicts for parsed commands', () => {
  it('answers a command decided again as the first time, and another rule set afresh', async () => {
    const strict = rules(['deny', 'Shell(rm -rf*)'], ['allow', 'Shell(git status*)']);
    const same = await subject('git status && rm -fr build');
    expect(strict.deny(same)?.rule.spec.pattern).toBe('Shell(rm -rf*)');
    expect(strict.deny(await subject('git status && rm -fr build'))?.rule.spec.pattern).toBe(
      'Shell(rm -rf*)',
    );
    // New rules are a new RuleSet: nothing remembered under the old one answers for it.
    expect(rules(['allow', 'Shell(git status*)']).deny(same)).toBeNull();
    const allowed = await subject('git status');
    expect(strict.allowOrAsk(allowed)?.decision).toBe('allow');
    expect(strict.allowOrAsk(allowed)?.decision).toBe('allow');
    expect(rules(['ask', 'Shell(git *)']).allowOrAsk(allowed)?.decision).toBe('ask');
  });

  it('keeps tool names and candidates apart under one parse', async () => {
    const set = rules(['deny', 'WriteFile(/etc/**)'], ['allow', 'Shell(ls*)']);
    const shell = await subject('ls -la');
    expect(set.allowOrAsk(shell)?.decision).toBe('allow');
    expect(set.allowOrAsk({ ...shell, toolName: 'Other' })).toBeNull();
    expect(set.deny({ ...shell, toolName: 'WriteFile' })).toBeNull();
    expect(set.deny({ ...shell, toolName: 'WriteFile', candidates: ['/etc/passwd'] })?.decision).toBe('deny');
    // An incomplete parse is never allowed, whatever was remembered for the complete one.
    expect(set.allowOrAsk({ ...shell, commandIncomplete: true })).toBeNull();
  });
});
