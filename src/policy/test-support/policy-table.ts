import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Effect } from '../effects.js';
import { PermissionRule, type PermissionRuleSpec } from '../permission-rule.js';
import type { PolicyRequest, ToolQuestion } from '../policy-decision.js';
import { ProtectedFiles } from '../protected-files.js';
import { resolveFileTarget } from '../real-path.js';
import { RuleSet } from '../rule-set.js';
import type { PolicySandbox } from '../sandbox-exit.js';
import { type PolicyModes, SessionPolicy } from '../session-policy.js';

/**
 * Shared by the two halves of the policy table (files; commands and network): a real temp tree
 * with symlinks, effect builders, and the check of one row in one mode.
 *
 * The policy as a table: path classes (workspace, add-dir, outside, secret, through real symlinks)
 * × modes (default, yolo, afk) × rules → the decision, and which step of the order made it.
 */

let root: string;
let work: string;
export const mode = {
  default: { yolo: false, afk: false, runtimeAfk: false },
  yolo: { yolo: true, afk: false, runtimeAfk: false },
  afk: { yolo: false, afk: true, runtimeAfk: false },
  print: { yolo: false, afk: false, runtimeAfk: true },
} satisfies Record<string, PolicyModes>;
export type ModeName = keyof typeof mode;

/** Creates the tree before the file's tests and removes it after. */
export function useFixture(): void {
  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'kimi-ts-policy-')));
    work = join(root, 'work');
    for (const dir of ['work/src', 'extra', 'outside', 'home/.ssh', 'home/.kimi-ts']) {
      await mkdir(join(root, dir), { recursive: true });
    }
    await writeFile(join(work, 'src', 'a.ts'), 'x');
    await writeFile(join(root, 'outside', '.bashrc'), 'x');
    await writeFile(join(root, 'outside', '.env'), 'TOKEN=1');
    await writeFile(join(root, 'outside', 'notes.txt'), 'x');
    await writeFile(join(root, 'home', '.ssh', 'id_rsa'), 'key');
    await writeFile(join(root, 'home', '.kimi-ts', 'config.toml'), 'api_key = "x"');
    await symlink('../outside', join(work, 'link_out'));
    await symlink('../outside/.bashrc', join(work, 'bashrc_link'));
    await symlink('../outside/.env', join(work, 'env_link'));
    await symlink('../home/.ssh/id_rsa', join(work, 'key_link'));
    // A dotenv file whose values are kept under a plain name (issue #24), and a plain name for it.
    await writeFile(join(root, 'outside', 'deploy-values'), 'DB_PASSWORD=x');
    await symlink('../outside/deploy-values', join(work, 'deploy.env'));
    await symlink('deploy.env', join(work, 'settings_link'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });
}

/** The fixture's temp root (its `home`, `work`, `outside`), once useFixture's beforeAll ran. */
export function fixtureRoot(): string {
  return root;
}

export const read = async (path: string): Promise<Effect> => ({
  kind: 'read',
  target: await resolveFileTarget(path.replace('$ROOT', root), work),
  access: 'read',
});
export const write = async (path: string): Promise<Effect> => ({
  kind: 'write',
  target: await resolveFileTarget(path.replace('$ROOT', root), work),
});
export const exec = (command: string): Effect => ({ kind: 'exec', command, cwd: '/w', background: false });
/** A command run in the work dir; `justification` set: the model asked to run it outside the sandbox. */
export const execInWork = (command: string, justification?: string): Effect => ({
  kind: 'exec',
  command,
  cwd: work,
  background: false,
  leaveSandbox: justification === undefined ? undefined : { justification },
});
export const fetch = (host: string, address: string): Effect => ({
  kind: 'network',
  url: `http://${host}/page`,
  host,
  addresses: [{ address, family: address.includes(':') ? 6 : 4 }],
  purpose: 'fetch',
});
export const editQuestion: ToolQuestion = { action: 'edit file', description: 'Write file `x`' };
export const runQuestion = (command: string): ToolQuestion => ({
  action: 'run command',
  description: `Run command \`${command}\``,
});

export interface Row {
  name: string;
  tool: string;
  effect: () => Promise<Effect> | Effect;
  question?: PolicyRequest['question'];
  modes: ModeName[];
  rules?: PermissionRuleSpec[];
  approved?: string[];
  /** Command prefixes approved for the session ("commands starting with …"). */
  prefixes?: string[];
  background?: boolean;
  /** The command sandbox the policy holds file writes and commands to (absent: off). */
  sandbox?: PolicySandbox;
  expected: 'allow' | 'ask' | 'deny';
  step: string;
  action?: string;
  says?: string;
}

/** Decides the row's call in one mode and checks the decision, its step and its words. */
export async function checkRow(row: Row, modeName: ModeName): Promise<void> {
  const rules = new RuleSet(
    (row.rules ?? []).map((spec, i) => new PermissionRule(spec, { file: 'test.toml', index: i + 1 })),
  );
  const approved = new Set(row.approved ?? []);
  const policy = new SessionPolicy({
    workDir: work,
    additionalDirs: [join(root, 'extra')],
    homes: { userHome: join(root, 'home'), kimiHome: join(root, 'home', '.kimi-ts') },
    rules,
    sandbox: row.sandbox,
    modes: mode[modeName],
    sessionApprovals: { isSessionApproved: (action) => approved.has(action) },
    // A config file the session loaded (`--config-file` outside the workspace).
    protectedFiles: new ProtectedFiles([
      { path: join(root, 'outside', 'agent.toml'), what: 'a config file of the agent' },
    ]),
  });
  for (const prefix of row.prefixes ?? []) {
    await policy.remember({ toolName: row.tool, effects: [], scope: 'prefix', prefix });
  }
  const decision = await policy.decide({
    toolName: row.tool,
    effects: [await row.effect()],
    question: row.question,
    background: row.background,
  });
  expect(decision.decision).toBe(row.expected);
  expect(decision.step).toBe(row.step);
  if (row.action && decision.decision === 'ask') expect(decision.action).toBe(row.action);
  if (row.says) {
    const text =
      decision.decision === 'ask'
        ? decision.description
        : decision.decision === 'deny'
          ? decision.reason
          : '';
    expect(text).toContain(row.says.replaceAll('$ROOT', root));
  }
  if (decision.decision === 'ask') {
    // The facts travel as a display block too whenever they add to the tool's own words.
    const facts = decision.display.find((block) => block.type === 'policy_effect');
    if (decision.description.includes('\n- ')) expect(facts).toBeDefined();
    if (row.step === 'sensitive') expect(facts?.secret).toEqual(expect.any(String));
    if (row.step === 'private-network') expect(facts?.address_class).not.toBe('public');
    expect(decision.evenIfAutoApproving).toBe(
      row.step === 'sensitive' ||
        row.step === 'private-network' ||
        row.step === 'rule' ||
        row.step === 'sandbox' ||
        row.step === 'protected',
    );
  }
}

export function casesOf(rows: readonly Row[]): (readonly [string, Row, ModeName])[] {
  return rows.flatMap((row) => row.modes.map((m) => [`${row.name} [${m}]`, row, m] as const));
}
