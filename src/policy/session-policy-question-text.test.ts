import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PolicyDecision } from './policy-decision.js';
import { SessionPolicy } from './session-policy.js';

/**
 * A decision that asks makes its question's words and blocks when they are first read (issue 24:
 * they were much of such a decision's cost). Whoever reads them — by name or as JSON — gets the
 * same text, made once.
 */

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'kimi-ts-question-text-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function askFor(command: string): Promise<Extract<PolicyDecision, { decision: 'ask' }>> {
  const policy = new SessionPolicy({
    workDir: root,
    additionalDirs: [],
    homes: { userHome: join(root, 'home'), kimiHome: join(root, 'home', '.kimi-ts') },
  });
  const decision = await policy.decide({
    toolName: 'Shell',
    effects: [{ kind: 'exec', command, cwd: root, background: false }],
    question: { action: 'run command', description: `Run command \`${command}\`` },
  });
  if (decision.decision !== 'ask') throw new Error(`expected a question, got ${decision.decision}`);
  return decision;
}

describe('the question text of a decision that asks', () => {
  const command = 'ls | while read -r f; do wc -l "$f"; done > out.txt';
  const expected = {
    decision: 'ask',
    step: 'tool-default',
    action: 'run command',
    description: [
      `Run command \`${command}\``,
      '- runs 4 parts: `ls`, `read -r f`, `wc -l "$f"`, `> out.txt`',
      '- not covered by allow rules: `wc -l "$f"` — `"$f"` is not a literal word (an expansion decides it)',
    ].join('\n'),
    display: [
      {
        type: 'policy_effect',
        effect: 'exec',
        command,
        parts: ['ls', 'read -r f', 'wc -l "$f"', '> out.txt'],
        parsed_whole: true,
        secret: null,
        not_simple: [{ part: 'wc -l "$f"', why: '`"$f"` is not a literal word (an expansion decides it)' }],
      },
    ],
    secret: false,
    evenIfAutoApproving: false,
    rememberApproval: false,
  };

  it('reads as the whole question, field by field or as JSON', async () => {
    const decision = await askFor(command);
    const read = {
      decision: decision.decision,
      step: decision.step,
      action: decision.action,
      description: decision.description,
      display: decision.display,
      secret: decision.secret,
      evenIfAutoApproving: decision.evenIfAutoApproving,
      rememberApproval: decision.rememberApproval,
    };
    expect(read).toEqual(expected);
    // JSON first, before anything read the text: it is made then.
    expect(JSON.stringify(await askFor(command))).toBe(JSON.stringify(expected));
  });

  it('is made once: a second read gives the same text and blocks', async () => {
    const decision = await askFor(command);
    const display = decision.display;
    expect(decision.display).toBe(display);
    expect(decision.description).toBe(decision.description);
  });

  it('shows what is invisible, as before', async () => {
    const decision = await askFor('echo a\u200bb | while read -r f; do x; done');
    expect(decision.description).toContain('Run command `echo a⟨U+200B⟩b |');
    expect(decision.description).not.toContain('\u200b');
  });
});
