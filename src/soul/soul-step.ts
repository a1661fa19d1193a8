import { isAbortError } from '../kosong/errors.js';
import { inputTokens, type Message, totalTokens } from '../kosong/message.js';
import { type InterruptedStep, step as kosongStep, type StepResult } from '../kosong/step.js';
import type { ToolResult } from '../kosong/tool.js';
import { isRejectionWithoutFeedback, toolErrorKind } from '../toolset/tool-errors.js';
import { systemReminder, toolResultToMessage } from '../toolset/tool-result-message.js';
import { streamedPartEvent, wireEvent } from '../wire/events.js';
import { contextNumbers } from './context-status.js';
import { attachTurnContext, classifyApiError } from './errors.js';
import { interruptedStepMessages } from './interrupted-step.js';
import { soulStallOptions } from './model-waiting.js';
import { normalizeHistory } from './normalize-history.js';
import { withAuthRecovery, withRetry } from './retry.js';
import type { SoulParts } from './soul-parts.js';
import type { StepOutcome } from './turn-outcome.js';

/** Seed 002 §4.3: a D-Mail arrived; the loop reverts the context to its checkpoint. */
export class BackToTheFuture extends Error {
  override name = 'BackToTheFuture';
  constructor(
    readonly checkpointId: number,
    readonly dmailMessage: string,
  ) {
    super(`D-Mail to checkpoint ${checkpointId}`);
  }
}

/** At most this many background notifications enter the context per step (root only). */
export const NOTIFICATIONS_PER_STEP = 4;

/**
 * One step (seed 002 §5): notifications, dynamic injections, the model call with recovery and
 * retries, status, tool results, atomic context growth, and the decision whether the turn goes on.
 */
export async function runStep(
  parts: SoulParts,
  stepNo: number,
  signal: AbortSignal,
): Promise<StepOutcome | null> {
  const { context, toolset, llm, hooks } = parts;
  if (!llm) throw new Error('runStep needs an LLM');

  // 2e.1 Background notifications become user messages (root only).
  if (parts.isRoot && parts.notifications) {
    const delivered = await parts.notifications.claimForLLM(NOTIFICATIONS_PER_STEP, signal);
    if (delivered.length > 0) {
      await context.appendMessages(
        delivered.map((n) => ({ role: 'user', content: [{ type: 'text', text: n.text }] })),
      );
      for (const n of delivered) {
        hooks.fire('Notification', {
          target: n.type,
          input: { sink: 'llm', notification_type: n.type, ...n.hookFields },
          report: parts.runScope.reporter(),
        });
      }
    }
  }

  // 2e.2 Dynamic injections, all in one system-reminder message.
  const reminders: string[] = [];
  for (const injection of parts.injections) {
    const text = await injection.inject({ history: context.history, stepNo });
    if (text) reminders.push(systemReminder(text));
  }
  if (reminders.length > 0) {
    await context.appendMessages({ role: 'user', content: [{ type: 'text', text: reminders.join('\n') }] });
  }

  // 2e.3 History as the API wants it.
  const history = normalizeHistory(context.history);

  // 2e.4 The model call: recovery inside each attempt, bounded retries around it.
  const startedAt = Date.now();
  const stall = soulStallOptions(parts.loopControl.stallTimeoutMs, parts.runScope.send);
  let interrupted = null as InterruptedStep | null;
  let result: StepResult;
  try {
    result = await withRetry(
      () =>
        withAuthRecovery(
          () => {
            // Every try starts the step's bookkeeping afresh: calls of a failed try do not count.
            toolset.beginStep(parts.lastToolCalls);
            return kosongStep(llm.provider, parts.systemPrompt, toolset, history, {
              signal,
              onMessagePart: (part) => parts.runScope.send(streamedPartEvent(part)),
              onToolResult: (toolResult) => parts.runScope.send(wireEvent('ToolResult', toolResult)),
              stall,
              onResponseStarted: parts.onModelResponse,
              onInterrupted: (record) => {
                interrupted = record;
              },
            });
          },
          { refreshAuth: parts.refreshAuth },
        ),
      {
        provider: llm.provider,
        maxAttempts: parts.loopControl.maxRetriesPerStep,
        signal,
        onRetry: (info) =>
          parts.runScope.send(
            wireEvent('StepRetry', {
              n: stepNo,
              next_attempt: info.nextAttempt,
              max_attempts: info.maxAttempts,
              wait_s: info.waitMs / 1000,
              error_type: errorClassName(info.error),
              status_code: info.statusCode,
            }),
          ),
        sleep: parts.sleep,
      },
    );
  } catch (error) {
    if (interrupted) await recordInterruptedStep(parts, interrupted);
    if (!isAbortError(error) && !signal.aborted) {
      attachTurnContext(error, {
        model: llm.provider.modelName,
        durationMs: Date.now() - startedAt,
        contextTokens: context.tokenCount,
        origin: llm.origin,
      });
      parts.onApiError?.(error, classifyApiError(error));
    }
    throw error;
  }

  // 2e.5 Usage and status.
  const usage = result.usage;
  // As Kimi CLI: the input tokens the provider reported (the context as this step was asked);
  // without a report the context numbers stay empty rather than guessed.
  parts.runScope.send(
    wireEvent('StatusUpdate', {
      // Always there (null without a report): front ends tell the step's own update by it.
      token_usage: usage ?? null,
      message_id: result.id,
      ...contextNumbers(parts, usage ? inputTokens(usage) : null),
      plan_mode: parts.planMode?.() ?? null,
    }),
  );

  // 2e.6 Every tool result, in call order.
  let results: ToolResult[];
  try {
    results = await result.toolResults();
  } catch (error) {
    if (interrupted) await recordInterruptedStep(parts, interrupted);
    throw error;
  }
  parts.lastToolCalls = toolset.endStep();

  // 2e.7 The assistant message and its tool messages enter the context together or not at all. The
  // write takes no signal: once results exist, a cancel must not leave a call without its result.
  await growContext(parts, result.message, results);
  if (usage) await context.updateUsage(totalTokens(usage));
  if (usage) parts.onStepTokens?.(totalTokens(usage));

  // 2e.8 Does the turn go on?
  return resolveOutcome(parts, result, results);
}

async function growContext(
  parts: SoulParts,
  assistant: Message,
  results: readonly ToolResult[],
): Promise<void> {
  const messages: Message[] = [assistant];
  for (const r of results) messages.push(toolResultToMessage(r));
  await parts.context.appendMessages(messages);
}

/**
 * A cancelled step still enters the context, whole, in one append (taking no signal, like any
 * growth): its calls with their results or "interrupted" results. Without it the next prompt would
 * follow the last one as if nothing had happened between them.
 */
async function recordInterruptedStep(parts: SoulParts, step: InterruptedStep): Promise<void> {
  const messages = interruptedStepMessages(step);
  if (messages.length > 0) await parts.context.appendMessages(messages);
}

function resolveOutcome(
  parts: SoulParts,
  result: StepResult,
  results: readonly ToolResult[],
): StepOutcome | null {
  const rejections = results.filter((r) => toolErrorKind(r.return_value) === 'rejected');
  const plainRejection =
    rejections.length > 0 && rejections.every((r) => isRejectionWithoutFeedback(r.return_value));
  if (plainRejection && parts.isRoot) {
    parts.denwaRenji.take(); // a plain rejection cancels any D-Mail sent in the same step
    return { stopReason: 'tool_rejected', finalMessage: null };
  }
  const dmail = parts.denwaRenji.take();
  if (dmail) throw new BackToTheFuture(dmail.checkpointId, dmail.message);
  if (parts.toolset.forceStopTurn) return { stopReason: 'tool_call_repeat', finalMessage: null };
  if (result.toolCalls.length > 0) return null;
  return { stopReason: 'no_tool_calls', finalMessage: result.message };
}

function errorClassName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
