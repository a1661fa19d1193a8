import { randomBytes } from 'node:crypto';
import type { PolicyDecision, SessionPolicy } from '../../policy/index.js';
import { type SlashCommand, say } from '../../soul/slash-commands.js';
import type { Approval } from '../../toolset/approval/approval.js';
import type { RunContext } from '../../toolset/run-scope.js';
import { assertNever } from '../../util/assert-never.js';
import { sanitizeForTerminal } from '../../util/sanitize-terminal.js';
import { RepoGitError, repoGit } from './repo-git.js';

/** Only branches a swarm or an isolated agent made can be merged by this command. */
const SWARM_BRANCH = /^kimi-ts\/[a-z0-9]{1,32}\/\d{1,4}$/;

/** The patch shown before the question is cut at this many lines / characters. */
const PATCH_MAX_LINES = 400;
const PATCH_MAX_CHARS = 40_000;

const USAGE = 'Usage: /swarm merge <branch>   (a kimi-ts/<id>/<n> branch a swarm or an isolated agent left)';

export interface SwarmCommandParts {
  workDir: string;
  policy: SessionPolicy;
  approval: Approval;
}

/** The merge as the policy sees it: a git command that writes `.git`, so beyond the sandbox. */
function mergeCommand(branch: string): string {
  return `git merge --no-ff --no-edit ${branch}`;
}

function cut(patch: string): string {
  const lines = patch.split('\n');
  let shown = lines.slice(0, PATCH_MAX_LINES).join('\n');
  if (shown.length > PATCH_MAX_CHARS) shown = shown.slice(0, PATCH_MAX_CHARS);
  return shown.length < patch.length
    ? `${shown}\n… (the patch goes on; git diff HEAD...BRANCH shows all of it)`
    : shown;
}

/** Asks the person through the session's approval seam, as a Shell command's question is asked. */
async function askPerson(
  approval: Approval,
  decision: Extract<PolicyDecision, { decision: 'ask' }>,
  signal: AbortSignal,
  run: RunContext,
): Promise<boolean> {
  const toolCall = {
    type: 'function' as const,
    id: `swarm_merge_${randomBytes(6).toString('hex')}`,
    function: { name: 'Shell', arguments: '{}' },
  };
  const answer = await approval.request(
    'Shell',
    decision.action,
    decision.description,
    [...decision.display],
    {
      remember: false,
      evenIfAutoApproving: decision.evenIfAutoApproving,
      call: { toolCall, signal, approvedActions: new Set() },
      run,
    },
  );
  return answer.approved;
}

/**
 * `/swarm merge <branch>`: shows what a swarm item's branch changes against HEAD (stat and patch,
 * made safe for a terminal), then merges it into the person's work tree only once the policy
 * allows it or the person approves, on the same path as a Shell command that leaves the sandbox
 * (the merge writes `.git`). git runs with the repository's hooks and drivers neutralised.
 */
export function swarmCommand(parts: SwarmCommandParts): SlashCommand {
  return {
    name: 'swarm',
    description: "Merge a swarm item's branch after showing its diff: /swarm merge <branch>",
    aliases: [],
    async run({ soul, args, signal }) {
      const [sub, branch, ...rest] = args.trim().split(/\s+/);
      if (sub !== 'merge' || branch === undefined || rest.length > 0) {
        say(soul, USAGE);
        return;
      }
      if (!SWARM_BRANCH.test(branch)) {
        say(soul, `Not a swarm branch: ${sanitizeForTerminal(branch)}\n${USAGE}`);
        return;
      }
      let commit: string;
      let stat: string;
      let patch: string;
      try {
        // The commit shown is the commit merged: the branch may move while the person reads the
        // diff (a background command, another process), so the merge names the commit, not the ref.
        commit = (
          await repoGit(
            ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`],
            parts.workDir,
            {
              signal,
            },
          )
        ).stdout.trim();
        const range = `HEAD...${commit}`;
        const diff = ['diff', '--no-ext-diff', '--no-textconv', '--no-color'];
        stat = (await repoGit([...diff, '--stat', range, '--'], parts.workDir, { signal })).stdout;
        patch = (await repoGit([...diff, range, '--'], parts.workDir, { signal })).stdout;
      } catch (error) {
        if (!(error instanceof RepoGitError)) throw error;
        say(soul, `No branch ${branch} here (or no git repository): ${sanitizeForTerminal(error.message)}`);
        return;
      }
      if (stat.trim() === '') {
        say(soul, `${branch} changes nothing against HEAD: nothing to merge.`);
        return;
      }
      say(
        soul,
        sanitizeForTerminal(`Changes of ${branch} (${commit}) against HEAD:\n${stat}\n${cut(patch)}`),
      );
      const decision = await parts.policy.decide({
        toolName: 'Shell',
        question: {
          action: `merge ${branch}`,
          description: `Merge ${branch} at ${commit} into the current branch of ${parts.workDir} (${mergeCommand(branch)}; the diff is shown above).`,
          display: [{ type: 'shell', language: 'bash', command: mergeCommand(branch) }],
        },
        effects: [
          {
            kind: 'exec',
            command: mergeCommand(branch),
            cwd: parts.workDir,
            background: false,
            leaveSandbox: {
              justification: `/swarm merge: the merge commit is written into .git (${branch})`,
            },
          },
        ],
      });
      switch (decision.decision) {
        case 'deny':
          say(soul, `Not merged: ${sanitizeForTerminal(decision.reason)}`);
          return;
        case 'ask':
          if (!(await askPerson(parts.approval, decision, signal, soul.parts.runScope.current()))) {
            say(soul, `Not merged: the merge of ${branch} was not approved.`);
            return;
          }
          break;
        case 'allow':
          break;
        default:
          assertNever(decision);
      }
      try {
        await repoGit(
          ['merge', '--no-ff', '--no-edit', '-m', `Merge ${branch} (kimi-ts swarm)`, commit],
          parts.workDir,
          {
            signal,
          },
        );
      } catch (error) {
        if (!(error instanceof RepoGitError)) throw error;
        say(
          soul,
          `The merge of ${branch} failed: ${sanitizeForTerminal(error.message)}\nResolve it with git (git merge --abort undoes it).`,
        );
        return;
      }
      say(soul, `Merged ${branch} into the current branch.`);
    },
  };
}
