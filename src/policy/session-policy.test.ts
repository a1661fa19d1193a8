import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EDIT_OUTSIDE_ACTION,
  fetchHostAction,
  READ_OUTSIDE_ACTION,
  SEARCH_WEB_ACTION,
} from './approval-actions.js';
import type { Effect } from './effects.js';
import { PermissionRule, type PermissionRuleSpec } from './permission-rule.js';
import type { PolicyRequest, ToolQuestion } from './policy-decision.js';
import { resolveFileTarget } from './real-path.js';
import { RuleSet } from './rule-set.js';
import { type PolicyModes, SessionPolicy } from './session-policy.js';

/**
 * The policy as a table: path classes (workspace, add-dir, outside, secret, through real symlinks)
 * × modes (default, yolo, afk) × rules → the decision, and which step of the order made it.
 */

let root: string;
let work: string;
const mode = {
  default: { yolo: false, afk: false, runtimeAfk: false },
  yolo: { yolo: true, afk: false, runtimeAfk: false },
  afk: { yolo: false, afk: true, runtimeAfk: false },
  print: { yolo: false, afk: false, runtimeAfk: true },
} satisfies Record<string, PolicyModes>;
type ModeName = keyof typeof mode;

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
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const read = async (path: string): Promise<Effect> => ({
  kind: 'read',
  target: await resolveFileTarget(path.replace('$ROOT', root), work),
  access: 'read',
});
const write = async (path: string): Promise<Effect> => ({
  kind: 'write',
  target: await resolveFileTarget(path.replace('$ROOT', root), work),
});
const exec = (command: string): Effect => ({ kind: 'exec', command, cwd: '/w', background: false });
const fetch = (host: string, address: string): Effect => ({
  kind: 'network',
  url: `http://${host}/page`,
  host,
  addresses: [{ address, family: address.includes(':') ? 6 : 4 }],
  purpose: 'fetch',
});
const editQuestion: ToolQuestion = { action: 'edit file', description: 'Write file `x`' };
const runQuestion = (command: string): ToolQuestion => ({
  action: 'run command',
  description: `Run command \`${command}\``,
});

interface Row {
  name: string;
  tool: string;
  effect: () => Promise<Effect> | Effect;
  question?: PolicyRequest['question'];
  modes: ModeName[];
  rules?: PermissionRuleSpec[];
  approved?: string[];
  background?: boolean;
  expected: 'allow' | 'ask' | 'deny';
  step: string;
  action?: string;
  says?: string;
}

const ROWS: Row[] = [
  {
    name: 'read in the workspace',
    tool: 'ReadFile',
    effect: () => read('src/a.ts'),
    modes: ['default', 'afk'],
    expected: 'allow',
    step: 'tool-default',
  },
  {
    name: 'read in an add-dir',
    tool: 'ReadFile',
    effect: () => read('$ROOT/extra/x.txt'),
    modes: ['default'],
    expected: 'allow',
    step: 'tool-default',
  },
  {
    name: 'read outside',
    tool: 'ReadFile',
    effect: () => read('$ROOT/outside/notes.txt'),
    modes: ['default'],
    expected: 'ask',
    step: 'tool-default',
    action: READ_OUTSIDE_ACTION,
  },
  {
    name: 'read outside in yolo / afk',
    tool: 'ReadFile',
    effect: () => read('$ROOT/outside/notes.txt'),
    modes: ['yolo', 'afk', 'print'],
    expected: 'allow',
    step: 'mode',
  },
  {
    name: 'read outside approved for the session',
    tool: 'ReadFile',
    effect: () => read('$ROOT/outside/notes.txt'),
    modes: ['default'],
    approved: [READ_OUTSIDE_ACTION],
    expected: 'allow',
    step: 'session-approval',
  },
  {
    name: 'read through a symlink out',
    tool: 'ReadFile',
    effect: () => read('link_out/notes.txt'),
    modes: ['default'],
    expected: 'ask',
    step: 'tool-default',
    says: `read outside the working directory: ${'$ROOT'}/outside/notes.txt (via link_out/notes.txt)`,
  },
  {
    name: 'read a symlinked .env',
    tool: 'ReadFile',
    effect: () => read('env_link'),
    modes: ['default', 'yolo'],
    expected: 'ask',
    step: 'sensitive',
    says: 'read SECRET file $ROOT/outside/.env (via env_link): a dotenv file',
  },
  {
    name: 'read a symlinked .env without a person',
    tool: 'ReadFile',
    effect: () => read('env_link'),
    modes: ['afk', 'print'],
    expected: 'deny',
    step: 'sensitive',
    says: 'is a secret file',
  },
  {
    name: 'read a secret from a background agent',
    tool: 'ReadFile',
    effect: () => read('env_link'),
    modes: ['default'],
    background: true,
    expected: 'deny',
    step: 'sensitive',
  },
  {
    name: 'read an SSH key through a symlink',
    tool: 'ReadFile',
    effect: () => read('key_link'),
    modes: ['yolo'],
    expected: 'ask',
    step: 'sensitive',
    says: 'an SSH folder',
  },
  {
    name: "read the agent's config",
    tool: 'ReadFile',
    effect: () => read('$ROOT/home/.kimi-ts/config.toml'),
    modes: ['yolo'],
    expected: 'ask',
    step: 'sensitive',
    says: "the agent's own home",
  },
  {
    name: 'an allow rule does not open a secret',
    tool: 'ReadFile',
    effect: () => read('env_link'),
    modes: ['yolo'],
    rules: [{ decision: 'allow', pattern: 'Read' }],
    expected: 'ask',
    step: 'sensitive',
  },
  {
    name: 'a deny rule beats the secret question',
    tool: 'ReadFile',
    effect: () => read('env_link'),
    modes: ['default'],
    rules: [{ decision: 'deny', pattern: 'Read(**/.env)' }],
    expected: 'deny',
    step: 'deny-rule',
  },
  {
    name: 'a deny rule on a workspace glob',
    tool: 'ReadFile',
    effect: () => read('src/a.ts'),
    modes: ['yolo'],
    rules: [{ decision: 'deny', pattern: 'ReadFile(src/**)', reason: 'generated' }],
    expected: 'deny',
    step: 'deny-rule',
    says: 'generated',
  },
  {
    name: 'write in the workspace',
    tool: 'WriteFile',
    effect: () => write('src/new.ts'),
    question: editQuestion,
    modes: ['default'],
    expected: 'ask',
    step: 'tool-default',
    action: 'edit file',
  },
  {
    name: 'write in the workspace in yolo',
    tool: 'WriteFile',
    effect: () => write('src/new.ts'),
    question: editQuestion,
    modes: ['yolo', 'afk'],
    expected: 'allow',
    step: 'mode',
  },
  {
    name: 'write approved for the session',
    tool: 'WriteFile',
    effect: () => write('src/new.ts'),
    question: editQuestion,
    modes: ['default'],
    approved: ['edit file'],
    expected: 'allow',
    step: 'session-approval',
  },
  {
    name: 'write through a symlink to .bashrc',
    tool: 'WriteFile',
    effect: () => write('bashrc_link'),
    question: editQuestion,
    modes: ['default'],
    approved: ['edit file'],
    expected: 'ask',
    step: 'tool-default',
    action: EDIT_OUTSIDE_ACTION,
    says: 'Edit file outside the working directory: $ROOT/outside/.bashrc (via bashrc_link)',
  },
  {
    name: 'a new file through a symlinked folder',
    tool: 'WriteFile',
    effect: () => write('link_out/evil.txt'),
    question: editQuestion,
    modes: ['default'],
    expected: 'ask',
    step: 'tool-default',
    action: EDIT_OUTSIDE_ACTION,
    says: '$ROOT/outside/evil.txt (via link_out/evil.txt)',
  },
  {
    name: 'the plan file needs no question',
    tool: 'WriteFile',
    effect: () => write('$ROOT/home/.kimi-ts/plans/p.md'),
    question: 'none-needed',
    modes: ['default'],
    expected: 'allow',
    step: 'tool-default',
  },
  {
    name: 'a denied command after &&',
    tool: 'Shell',
    effect: () => exec('echo hi && rm -rf x'),
    question: runQuestion('echo hi && rm -rf x'),
    modes: ['yolo'],
    rules: [{ decision: 'deny', pattern: 'Shell(rm -rf*)' }],
    expected: 'deny',
    step: 'deny-rule',
  },
  {
    name: 'a denied command in $(…)',
    tool: 'Shell',
    effect: () => exec('echo $(rm -rf x)'),
    question: runQuestion('x'),
    modes: ['yolo'],
    rules: [{ decision: 'deny', pattern: 'Bash(rm -rf*)' }],
    expected: 'deny',
    step: 'deny-rule',
  },
  {
    name: 'a denied command behind a pipe',
    tool: 'Shell',
    effect: () => exec('ls | rm -rf x'),
    question: runQuestion('x'),
    modes: ['yolo'],
    rules: [{ decision: 'deny', pattern: 'Shell(rm -rf*)' }],
    expected: 'deny',
    step: 'deny-rule',
  },
  {
    name: 'an allowed command',
    tool: 'Shell',
    effect: () => exec('git status'),
    question: runQuestion('git status'),
    modes: ['default'],
    rules: [{ decision: 'allow', pattern: 'Shell(git *)' }],
    expected: 'allow',
    step: 'rule',
  },
  {
    name: 'an allowed command joined to another',
    tool: 'Shell',
    effect: () => exec('git status && curl x'),
    question: runQuestion('x'),
    modes: ['default'],
    rules: [{ decision: 'allow', pattern: 'Shell(git *)' }],
    expected: 'ask',
    step: 'tool-default',
    says: 'runs 2 parts: `git status`, `curl x`',
  },
  {
    name: 'an allowed command writing a file',
    tool: 'Shell',
    effect: () => exec('git log > ~/.bashrc'),
    question: runQuestion('x'),
    modes: ['default'],
    rules: [{ decision: 'allow', pattern: 'Shell(git *)' }],
    expected: 'ask',
    step: 'tool-default',
  },
  {
    name: 'an allowed command the parser cannot read whole',
    tool: 'Shell',
    effect: () => exec('git status "unterminated'),
    question: runQuestion('x'),
    modes: ['default'],
    rules: [{ decision: 'allow', pattern: 'Shell(git *)' }],
    expected: 'ask',
    step: 'tool-default',
    says: 'the parser found a syntax error',
  },
  {
    name: 'an ask rule in yolo',
    tool: 'Shell',
    effect: () => exec('npm publish'),
    question: runQuestion('npm publish'),
    modes: ['yolo'],
    rules: [{ decision: 'ask', pattern: 'Shell(npm publish*)' }],
    expected: 'ask',
    step: 'rule',
  },
  {
    name: 'an ask rule without a person',
    tool: 'Shell',
    effect: () => exec('npm publish'),
    question: runQuestion('npm publish'),
    modes: ['print'],
    rules: [{ decision: 'ask', pattern: 'Shell(npm publish*)' }],
    expected: 'deny',
    step: 'rule',
  },
  {
    name: 'a public host',
    tool: 'FetchURL',
    effect: () => fetch('example.com', '93.184.216.34'),
    modes: ['default'],
    expected: 'ask',
    step: 'tool-default',
    action: fetchHostAction('example.com'),
  },
  {
    name: 'a public host in yolo, afk, print',
    tool: 'FetchURL',
    effect: () => fetch('example.com', '93.184.216.34'),
    modes: ['yolo', 'afk', 'print'],
    expected: 'allow',
    step: 'mode',
  },
  {
    name: 'a public host approved for the session',
    tool: 'FetchURL',
    effect: () => fetch('example.com', '93.184.216.34'),
    modes: ['default'],
    approved: [fetchHostAction('example.com')],
    expected: 'allow',
    step: 'session-approval',
  },
  {
    name: 'another host is not covered',
    tool: 'FetchURL',
    effect: () => fetch('other.org', '93.184.216.35'),
    modes: ['default'],
    approved: [fetchHostAction('example.com')],
    expected: 'ask',
    step: 'tool-default',
  },
  {
    name: 'a host allowed by a Kimi Code rule',
    tool: 'FetchURL',
    effect: () => fetch('docs.rs', '1.2.3.4'),
    modes: ['default'],
    rules: [{ decision: 'allow', pattern: 'WebFetch(domain:docs.rs)' }],
    expected: 'allow',
    step: 'rule',
  },
  {
    name: 'loopback, even in yolo',
    tool: 'FetchURL',
    effect: () => fetch('127.0.0.1:8080', '127.0.0.1'),
    modes: ['default', 'yolo'],
    expected: 'ask',
    step: 'private-network',
    says: 'a loopback address',
  },
  {
    name: 'a name resolving to a private address',
    tool: 'FetchURL',
    effect: () => fetch('intranet', '10.1.2.3'),
    modes: ['yolo'],
    approved: [fetchHostAction('intranet')],
    expected: 'ask',
    step: 'private-network',
  },
  {
    name: 'cloud metadata (link-local) without a person',
    tool: 'FetchURL',
    effect: () => fetch('169.254.169.254', '169.254.169.254'),
    modes: ['afk', 'print'],
    expected: 'deny',
    step: 'private-network',
    says: 'link-local',
  },
  {
    name: 'a private host named by an allow rule',
    tool: 'FetchURL',
    effect: () => fetch('127.0.0.1', '127.0.0.1'),
    modes: ['print'],
    rules: [{ decision: 'allow', pattern: 'FetchURL(domain:127.0.0.1)' }],
    expected: 'allow',
    step: 'rule',
  },
  {
    name: 'a whole-tool allow rule does not open private hosts',
    tool: 'FetchURL',
    effect: () => fetch('127.0.0.1:8080', '127.0.0.1'),
    modes: ['print'],
    rules: [{ decision: 'allow', pattern: 'FetchURL' }],
    expected: 'deny',
    step: 'private-network',
  },
  {
    name: 'IPv4-mapped loopback',
    tool: 'FetchURL',
    effect: () => fetch('[::ffff:127.0.0.1]', '::ffff:127.0.0.1'),
    modes: ['print'],
    expected: 'deny',
    step: 'private-network',
  },
  {
    name: 'web search asks once',
    tool: 'SearchWeb',
    effect: () => ({ kind: 'network', url: 'q', host: 'search.example', addresses: [], purpose: 'search' }),
    modes: ['default'],
    expected: 'ask',
    step: 'tool-default',
    action: SEARCH_WEB_ACTION,
  },
  {
    name: 'an MCP tool as configured',
    tool: 'lookup',
    effect: () => ({ kind: 'external', action: 'mcp:lookup' }),
    question: { action: 'mcp:lookup', description: 'Call MCP tool `lookup`.' },
    modes: ['default'],
    expected: 'ask',
    step: 'tool-default',
    action: 'mcp:lookup',
  },
  {
    name: 'an MCP tool denied by name',
    tool: 'lookup',
    effect: () => ({ kind: 'external', action: 'mcp:lookup' }),
    question: { action: 'mcp:lookup', description: 'x' },
    modes: ['yolo'],
    rules: [{ decision: 'deny', pattern: 'lookup' }],
    expected: 'deny',
    step: 'deny-rule',
  },
];

const cases = ROWS.flatMap((row) => row.modes.map((m) => [`${row.name} [${m}]`, row, m] as const));

describe('SessionPolicy.decide', () => {
  it.each(cases)('%s', async (_name, row, modeName) => {
    const rules = new RuleSet(
      (row.rules ?? []).map((spec, i) => new PermissionRule(spec, { file: 'test.toml', index: i + 1 })),
    );
    const policy = new SessionPolicy({
      workDir: work,
      additionalDirs: [join(root, 'extra')],
      homes: { userHome: join(root, 'home'), kimiHome: join(root, 'home', '.kimi-ts') },
      rules,
    });
    const approved = new Set(row.approved ?? []);
    policy.attach(mode[modeName], { isSessionApproved: (action) => approved.has(action) });
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
        row.step === 'sensitive' || row.step === 'private-network' || row.step === 'rule',
      );
    }
  });
});
