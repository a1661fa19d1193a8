// The policy benches' set-up (policy.bench.mjs, policy-row-ab.mjs): a work dir in a temp folder with
// one source file, the 20 rules of policy-rules.mjs, a SessionPolicy over them, and the requests the
// bench decides (each decided once by the caller as its warm-up; the parser loads there).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RULES } from './policy-rules.mjs';

/** A Shell call's request as the toolset builds it. */
export function shellRequest(cwd, command) {
  return {
    toolName: 'Shell',
    effects: [{ kind: 'exec', command, cwd, background: false }],
    question: { action: 'run command', description: `Run command \`${command}\`` },
  };
}

/**
 * `policyModule`: the built `dist/policy/index.js` of the checkout to measure (imported by the
 * caller). Returns { work, policy, requests, dispose }.
 */
export async function policyFixture(policyModule, prefix) {
  const { PermissionRule, RuleSet, resolveFileTarget, SessionPolicy } = policyModule;
  const root = await mkdtemp(join(tmpdir(), prefix));
  const work = join(root, 'work');
  await mkdir(join(work, 'src'), { recursive: true });
  await writeFile(join(work, 'src', 'index.ts'), 'x');
  const rules = new RuleSet(
    RULES.map(
      ([decision, pattern], i) => new PermissionRule({ decision, pattern }, { file: 'bench', index: i + 1 }),
    ),
  );
  const policy = new SessionPolicy({
    workDir: work,
    additionalDirs: [],
    homes: { userHome: root, kimiHome: join(root, '.kimi-ts') },
    rules,
    modes: { yolo: false, afk: false, runtimeAfk: false },
    sessionApprovals: { isSessionApproved: () => false },
  });
  const requests = {
    ReadFile: {
      toolName: 'ReadFile',
      effects: [{ kind: 'read', target: await resolveFileTarget('src/index.ts', work), access: 'read' }],
      question: undefined,
    },
    WriteFile: {
      toolName: 'WriteFile',
      effects: [{ kind: 'write', target: await resolveFileTarget('src/new.ts', work) }],
      question: { action: 'edit file', description: 'Write file `src/new.ts`' },
    },
    FetchURL: {
      toolName: 'FetchURL',
      effects: [
        {
          kind: 'network',
          url: 'https://docs.rs/x',
          host: 'docs.rs',
          addresses: [{ address: '18.1.2.3', family: 4 }],
          purpose: 'fetch',
        },
      ],
      question: undefined,
    },
    Shell: shellRequest(work, 'git status && ls -la | wc -l'),
    // The richer parse (issue 24): wrappers looked through, a bash -c string parsed in turn, flags
    // matched in any order against the deny rules.
    'Shell (wrappers, bash -c)': shellRequest(
      work,
      "sudo -u root env A=1 bash -c 'git status && rm -fr build' | xargs -0 echo",
    ),
    // Assignments, expansions and globs: not simple, and deny rules check what they cannot rule out.
    'Shell (expansions)': shellRequest(work, 'GIT_PAGER=cat git commit -m "$msg" && ls *.ts > "$out"'),
  };
  return { work, policy, requests, dispose: () => rm(root, { recursive: true, force: true }) };
}
