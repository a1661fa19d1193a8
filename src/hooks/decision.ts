import { z } from 'zod';
import { builtOnFirstUse } from '../util/built-on-first-use.js';
import type { HookDecision, HookEvent } from './types.js';

/** The exit code with which a hook command blocks, giving its reason on stderr (Claude Code's contract). */
export const BLOCKING_EXIT_CODE = 2;

/**
 * The parts of a hook's JSON answer that can block. Claude Code's contract: a PreToolUse hook answers
 * `hookSpecificOutput.permissionDecision: "deny"`; other events answer `decision: "block"`. Anything
 * else in the object is ignored, so hooks written for Claude Code's richer output still parse.
 */
function buildJsonAnswerSchema() {
  return z.looseObject({
    decision: z.unknown().optional(),
    reason: z.unknown().optional(),
    hookSpecificOutput: z
      .looseObject({
        permissionDecision: z.unknown().optional(),
        permissionDecisionReason: z.unknown().optional(),
      })
      .nullish(),
  });
}

/** Built on the first hook answer: most sessions run no hook. */
const hookJsonAnswerSchema = builtOnFirstUse(buildJsonAnswerSchema);

export function fallbackBlockReason(event: HookEvent): string {
  return `Blocked by ${event} hook`;
}

/**
 * Turns a finished hook command into a decision. Exit 2 blocks with stderr as the reason; exit 0 may
 * block through a JSON answer on stdout; every other outcome allows, so a broken hook never stops work.
 */
export function decideFromOutput(
  event: HookEvent,
  exitCode: number | null,
  stdout: string,
  stderr: string,
): HookDecision {
  if (exitCode === BLOCKING_EXIT_CODE) {
    return { action: 'block', reason: stderr.trim() || fallbackBlockReason(event) };
  }
  if (exitCode !== 0) return allow();
  const answer = parseJsonAnswer(stdout);
  if (!answer) return allow();
  const specific = answer.hookSpecificOutput;
  if (specific && specific.permissionDecision === 'deny') {
    return { action: 'block', reason: textOr(specific.permissionDecisionReason, fallbackBlockReason(event)) };
  }
  if (answer.decision === 'block') {
    return { action: 'block', reason: textOr(answer.reason, fallbackBlockReason(event)) };
  }
  return allow();
}

function parseJsonAnswer(stdout: string): z.output<ReturnType<typeof buildJsonAnswerSchema>> | null {
  const text = stdout.trim();
  if (!text.startsWith('{')) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = hookJsonAnswerSchema().safeParse(value);
  return parsed.success ? parsed.data : null;
}

function textOr(value: unknown, fallback: string): string {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : fallback;
}

function allow(): HookDecision {
  return { action: 'allow', reason: '' };
}
