import { dirname } from 'node:path';
import { EDIT_OUTSIDE_ACTION } from './approval-actions.js';
import { showTarget } from './describe-facts.js';
import type { EffectFacts } from './effect-facts.js';
import { outsideRunFilesLine } from './outside-run-files.js';
import type { WorkspaceRoots } from './path-class.js';
import type { PolicyRequest, ToolQuestion } from './policy-decision.js';
import { isReadOnlyCommand } from './read-only-commands.js';
import type { AgentCode } from './sandbox-agent-code.js';
import { sandboxWritable } from './sandbox-protected.js';
import { opaqueCommand } from './shell-command.js';

/** The command sandbox as the policy sees it; absent when the person turned it off. */
export interface PolicySandbox {
  /** `on`: commands run in the sandbox; `unavailable`: wanted, but it cannot run here. */
  readonly state: 'on' | 'unavailable';
  readonly mode: 'workspace-write' | 'read-only';
  /** The agent spec's files, the tool modules it names, the hooks' scripts (src/policy/sandbox-agent-code.ts). */
  readonly agentCode?: AgentCode | undefined;
}

/** A call that would act beyond the sandbox: the question for a person, and the refusal without one. */
export interface SandboxExit {
  readonly question: ToolQuestion;
  readonly refusal: string;
}

/** Approving it for the session covers every such edit (the person chose so). */
export const PROTECTED_EDIT_ACTION = 'edit file the sandbox keeps read-only';

const NOBODY =
  'no person can approve it here (print mode, afk, or a background agent), so it is refused. Do not try to get around it';

/**
 * Whether a call reaches beyond what the sandbox allows: a command the model asked to run outside
 * it, any command but the read-only set where the sandbox cannot run, a file tool writing where a
 * sandboxed command could not (outside the workspace and add-dirs, into `.git` or `.kimi-ts`, or
 * anywhere in `read-only` mode) — by real path. Null when it stays inside.
 */
export async function sandboxExit(
  sandbox: PolicySandbox,
  request: PolicyRequest,
  facts: readonly EffectFacts[],
  roots: WorkspaceRoots,
  isSecret: (realPath: string) => boolean,
): Promise<SandboxExit | null> {
  // The tool says nothing will change (a call it refuses, the plan file in plan mode).
  if (request.question === 'none-needed') return null;
  for (const fact of facts) {
    const { effect } = fact;
    if (effect.kind === 'exec') {
      const shown = effect.command.trim();
      if (sandbox.state === 'unavailable') {
        const classify = (real: string) => roots.classify(real);
        const parsed = fact.command ?? opaqueCommand(shown);
        if (await isReadOnlyCommand(effect.command, parsed, effect.cwd, classify, isSecret)) continue;
        return {
          question: {
            action: 'run command without the sandbox',
            description: `Run command \`${shown}\` with no sandbox (bubblewrap cannot run here: nothing limits what it reads, writes or reaches)`,
            display: [{ type: 'shell', language: 'bash', command: effect.command }],
          },
          refusal: `The command sandbox cannot run on this machine, so this command would run with nothing limiting it. That needs a person's approval, and ${NOBODY}. Without the sandbox only a few read-only commands (ls, cat, head, tail, wc, grep, diff, stat on workspace files) run unasked.`,
        };
      }
      if (effect.leaveSandbox) {
        const reason = effect.leaveSandbox.justification.trim() || '(no reason given)';
        // In the text an exact session approval remembers: a changed script is a new question.
        const files = outsideRunFilesLine(fact.command, effect.cwd);
        return {
          question: {
            action: 'run command outside the sandbox',
            description: `Run command \`${shown}\` OUTSIDE the sandbox (full access to files, network and secrets)\nReason given: ${reason}${files === null ? '' : `\n${files}`}`,
            display: [
              { type: 'shell', language: 'bash', command: effect.command },
              { type: 'brief', text: `Outside the sandbox. Reason given: ${reason}` },
            ],
          },
          refusal: `Running a command outside the sandbox needs a person's approval, and ${NOBODY}. Run it inside the sandbox (leave out \`sandbox: "off"\`); a person who wants commands unsandboxed starts kimi-ts with --sandbox off.`,
        };
      }
    }
    if (effect.kind === 'write') {
      const real = effect.target.real;
      const writableRoots =
        sandbox.mode === 'read-only'
          ? []
          : [await roots.realWorkDir(), ...(await roots.realAdditionalDirs())];
      if (sandboxWritable(real, writableRoots, sandbox.agentCode)) continue;
      // Outside the workspace: the usual question (and its session approval), asked even in yolo.
      const outside = fact.pathClass === 'outside';
      return {
        question: outside
          ? {
              action: EDIT_OUTSIDE_ACTION,
              description: `Edit file outside the working directory: ${showTarget(effect.target)}`,
            }
          : {
              action: PROTECTED_EDIT_ACTION,
              description: `Edit a file the sandbox keeps read-only (${sandbox.mode === 'read-only' ? 'read-only mode' : ".git, .kimi-ts, kimi-ts's own code, the agent spec's files and tool code and the hooks' scripts run or configure things later"}): ${showTarget(effect.target)}`,
            },
        refusal: `\`${effect.target.given}\` (real path ${real}, in ${dirname(real)}) is outside what the sandbox lets anything write (${sandbox.mode === 'read-only' ? 'nothing: the sandbox is read-only' : "the workspace and add-dirs, but not their .git, .kimi-ts, kimi-ts's own code, the agent spec's files and tool code or the hooks' scripts"}). Writing it needs a person's approval, and ${NOBODY}.`,
      };
    }
  }
  return null;
}
