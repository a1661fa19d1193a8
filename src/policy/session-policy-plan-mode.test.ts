import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PermissionRule } from './permission-rule.js';
import { resolveFileTarget } from './real-path.js';
import { RuleSet } from './rule-set.js';
import { SessionPolicy } from './session-policy.js';

let root: string;
let work: string;
let planFile: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-plan-policy-')));
  work = join(root, 'work');
  await mkdir(join(root, 'home', '.kimi-ts', 'plans'), { recursive: true });
  await mkdir(work, { recursive: true });
  planFile = join(root, 'home', '.kimi-ts', 'plans', 'iron-man-thor-hulk.md');
  await writeFile(join(root, 'outside.txt'), 'x');
  // A link in the workspace named like a harmless file, pointing at the plan file; and the reverse.
  await symlink(planFile, join(work, 'plan_link.md'));
  await symlink(join(root, 'outside.txt'), join(work, 'out_link.txt'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function policyIn(options: { active: boolean; yolo?: boolean; allowAllWrites?: boolean }): SessionPolicy {
  const rules = new RuleSet(
    options.allowAllWrites
      ? [new PermissionRule({ decision: 'allow', pattern: 'WriteFile' }, { file: 'test.toml', index: 1 })]
      : [],
  );
  const policy = new SessionPolicy({
    workDir: work,
    additionalDirs: [],
    homes: { userHome: join(root, 'home'), kimiHome: join(root, 'home', '.kimi-ts') },
    rules,
    modes: { yolo: options.yolo ?? false, afk: false, runtimeAfk: false },
    sessionApprovals: { isSessionApproved: () => true },
    planMode: { isActive: () => options.active, planFilePath: () => planFile },
  });
  return policy;
}

async function decideWrite(policy: SessionPolicy, path: string) {
  const target = await resolveFileTarget(path, work);
  return policy.decide({
    toolName: 'WriteFile',
    effects: [{ kind: 'write', target }],
    question: { action: 'edit file', description: `Write file \`${path}\`` },
  });
}

describe('plan mode, decided by the policy', () => {
  it('refuses a write in the workspace even in yolo, with an allow rule and a session approval', async () => {
    const decision = await decideWrite(policyIn({ active: true, yolo: true, allowAllWrites: true }), 'a.ts');
    expect(decision).toMatchObject({ decision: 'deny', step: 'mode' });
    expect(decision.decision === 'deny' && decision.reason).toContain(
      `Plan mode is active. You may only edit the current plan file: \`${planFile}\`.`,
    );
  });

  it('lets the plan file itself be written', async () => {
    const decision = await decideWrite(policyIn({ active: true }), planFile);
    expect(decision.decision).not.toBe('deny');
  });

  it('a symlink leading out of the workspace is refused; one leading to the plan file is the plan file', async () => {
    expect((await decideWrite(policyIn({ active: true, yolo: true }), 'out_link.txt')).decision).toBe('deny');
    await writeFile(planFile, '# plan\n');
    expect((await decideWrite(policyIn({ active: true }), 'plan_link.md')).decision).not.toBe('deny');
  });

  it('off: a write goes through the usual order (yolo allows it)', async () => {
    const decision = await decideWrite(policyIn({ active: false, yolo: true }), 'a.ts');
    expect(decision.decision).toBe('allow');
  });

  it('reads and commands are not refused by plan mode (Kimi CLI leaves Shell to the reminder)', async () => {
    const policy = policyIn({ active: true, yolo: true });
    const decision = await policy.decide({
      toolName: 'Shell',
      effects: [{ kind: 'exec', command: 'ls', cwd: work, background: false }],
      question: { action: 'run command', description: 'Run `ls`' },
    });
    expect(decision.decision).toBe('allow');
  });
});
