import type { ToolReturnValue } from '../kosong/index.js';

/**
 * The error results the toolset produces itself. Each is tagged in `extras.error_kind` so code that
 * reads results (the soul deciding whether a turn ends on a rejection, the tool-result message adding
 * its runtime-error hint) does not have to parse message text.
 */
export type ToolErrorKind =
  | 'not_found'
  | 'parse'
  | 'validate'
  | 'runtime'
  | 'rejected'
  | 'hook_blocked'
  | 'not_run'
  | 'cancelled'
  | 'interrupted'
  | 'no_approval'
  | 'secret_in_arguments'
  | 'policy_denied';

function taggedError(
  kind: ToolErrorKind,
  message: string,
  brief: string,
  extras: Record<string, unknown> = {},
): ToolReturnValue {
  return {
    is_error: true,
    output: '',
    message,
    display: brief ? [{ type: 'brief', text: brief }] : [],
    extras: { error_kind: kind, ...extras },
  };
}

export function toolErrorKind(value: ToolReturnValue): ToolErrorKind | undefined {
  const kind = value.extras?.error_kind;
  return value.is_error && typeof kind === 'string' ? (kind as ToolErrorKind) : undefined;
}

/** The policy refused the call (a deny rule, a secret file where no person can approve…): the reason is for the model. */
export function toolPolicyDeniedError(reason: string): ToolReturnValue {
  return taggedError('policy_denied', reason, 'Refused by policy');
}

export function toolNotFoundError(name: string): ToolReturnValue {
  const text = `Tool \`${name}\` not found`;
  return taggedError('not_found', text, text);
}

export function toolParseError(detail: string): ToolReturnValue {
  return taggedError('parse', `Error parsing JSON arguments: ${detail}`, 'Invalid arguments');
}

/** A call whose arguments carry a secret kimi-ts knows is never run (`source` names it, never the value). */
export function toolSecretArgumentsError(source: string): ToolReturnValue {
  return taggedError(
    'secret_in_arguments',
    `The call was refused: its arguments contain a secret (${source}). Secrets never leave kimi-ts; do not put keys or tokens in tool arguments.`,
    'Refused: secret in arguments',
  );
}

export function toolValidateError(detail: string): ToolReturnValue {
  return taggedError('validate', `Error validating JSON arguments: ${detail}`, 'Invalid arguments');
}

export function toolRuntimeError(error: unknown): ToolReturnValue {
  const detail = error instanceof Error ? error.message : String(error);
  return taggedError('runtime', `Error running tool: ${detail}`, 'Tool runtime error');
}

export function isToolRuntimeError(value: ToolReturnValue): boolean {
  if (toolErrorKind(value) === 'runtime') return true;
  // kosong's own dispatch (SimpleToolset, step's safety net) produces untagged runtime errors.
  return (
    value.is_error &&
    value.display.some((block) => block.type === 'brief' && block.text === 'Tool runtime error')
  );
}

export function toolHookBlockedError(reason: string): ToolReturnValue {
  return taggedError('hook_blocked', reason || 'The call was blocked by a PreToolUse hook.', 'Hook blocked');
}

export function toolNotRunError(): ToolReturnValue {
  return taggedError(
    'not_run',
    'This tool call was not run: the model response that contained it was cut off before it ended, so the call may be incomplete. Issue it again if it is still needed.',
    'Not run: response cut',
  );
}

export function toolCancelledError(): ToolReturnValue {
  return taggedError('cancelled', 'The tool call was cancelled.', 'Cancelled');
}

/** A call of a step the user interrupted that had not finished by then (recorded so history stays paired). */
export function toolInterruptedError(): ToolReturnValue {
  return taggedError(
    'interrupted',
    'The user interrupted this tool call before it finished; it may have done part of its work. Check its effects before repeating it.',
    'Interrupted by user',
  );
}

export function toolNoApprovalError(toolName: string): ToolReturnValue {
  return taggedError(
    'no_approval',
    `Tool \`${toolName}\` has side effects and no approval mechanism is available in this session, so it was not run.`,
    'Approval unavailable',
  );
}

export interface RejectionOptions {
  feedback?: string | undefined;
  /** The request came from a subagent: tell it plainly not to retry or work around the refusal. */
  fromSubagent?: boolean | undefined;
}

export function toolRejectedError({ feedback, fromSubagent }: RejectionOptions = {}): ToolReturnValue {
  if (feedback) {
    return taggedError(
      'rejected',
      `The user rejected this tool call and said: ${feedback}`,
      `Rejected: ${feedback}`,
      {
        has_feedback: true,
      },
    );
  }
  const message = fromSubagent
    ? 'The user rejected this tool call. Find another way to finish the task, or explain the restriction in your summary. Do not retry the same call and do not try to get around the refusal by indirect means.'
    : 'The user rejected this tool call. Stop here and wait for the user to tell you how to continue.';
  return taggedError('rejected', message, 'Rejected by user', { has_feedback: false });
}

/** A rejection the soul treats as "stop the turn": rejected without user feedback. */
export function isRejectionWithoutFeedback(value: ToolReturnValue): boolean {
  return toolErrorKind(value) === 'rejected' && value.extras?.has_feedback !== true;
}

export function isToolRejection(value: ToolReturnValue): boolean {
  return toolErrorKind(value) === 'rejected';
}
