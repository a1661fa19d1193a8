import { isAbortError } from '../kosong/errors.js';
import { generate } from '../kosong/generate.js';
import type { ContentPart } from '../kosong/message.js';
import { systemText } from '../toolset/tool-result-message.js';
import { wireEvent } from '../wire/events.js';
import { COMPACTION_SYSTEM_PROMPT, compactionRequest, planCompaction } from './compaction.js';
import { estimateTokens } from './context/token-estimate.js';
import { soulStallOptions } from './model-waiting.js';
import { withAuthRecovery, withRetry } from './retry.js';
import type { SoulParts } from './soul-parts.js';

export type CompactionTrigger = 'auto' | 'manual' | 'manual-with-prompt';

/**
 * Replaces older history with a model-written summary (reference §1.15): PreCompact hook,
 * CompactionBegin, the model call (same retries and recovery as a step), a fresh context holding
 * the summary and the preserved tail, CompactionEnd, PostCompact hook.
 *
 * An automatic compaction that fails is reported as a Notification and the turn goes on: the next
 * step tries again, compaction is never switched off. A manual one rethrows.
 */
export async function compactContext(
  parts: SoulParts,
  trigger: CompactionTrigger,
  signal: AbortSignal,
  customInstruction: string,
  checkpoint: () => Promise<void>,
): Promise<boolean> {
  const { context, llm, hooks } = parts;
  if (!llm) return false;
  const plan = planCompaction(context.history);
  // Asked for, a compaction runs whenever there is a conversation (as in Kimi CLI): with nothing
  // older than the kept tail, the tail is all the compacted context holds and no model call is made.
  if (plan.toCompact.length === 0 && (trigger === 'auto' || plan.preserved.length === 0)) return false;

  await hooks.trigger('PreCompact', {
    target: trigger,
    input: { trigger, token_count: context.tokenCount },
    signal,
    report: parts.runScope.reporter(),
  });
  parts.runScope.send(wireEvent('CompactionBegin', {}));
  try {
    const summary =
      plan.toCompact.length === 0 ? null : await summarise(parts, plan.toCompact, customInstruction, signal);
    await context.clear({ systemPrompt: context.systemPrompt ?? parts.systemPrompt });
    await checkpoint();
    if (summary === null) {
      await context.appendMessages(plan.preserved);
      await context.updateUsage(estimateTokens(plan.preserved));
    } else {
      const head: ContentPart = {
        type: 'text',
        text: systemText('Earlier context was compacted. The summary follows:'),
      };
      await context.appendMessages([{ role: 'user', content: [head, ...summary.parts] }, ...plan.preserved]);
      const summaryTokens =
        summary.outputTokens ?? estimateTokens([{ role: 'user', content: summary.parts }]);
      await context.updateUsage(summaryTokens + estimateTokens(plan.preserved));
    }
    for (const injection of parts.injections) injection.onCompacted?.();
  } catch (error) {
    if (trigger !== 'auto' || signal.aborted || isAbortError(error)) throw error;
    parts.runScope.send(
      wireEvent('Notification', {
        id: `compaction-${Date.now().toString(36)}`,
        category: 'system',
        type: 'compaction.failed',
        source_kind: 'soul',
        source_id: 'compaction',
        title: 'Context compaction failed; it will be tried again before the next step',
        body: error instanceof Error ? error.message : String(error),
        severity: 'warning',
        created_at: Date.now() / 1000,
        payload: {},
      }),
    );
    return false;
  } finally {
    parts.runScope.send(wireEvent('CompactionEnd', {}));
  }
  hooks.fire('PostCompact', {
    target: trigger,
    input: { trigger, estimated_token_count: context.tokenCount },
    report: parts.runScope.reporter(),
  });
  return true;
}

/** The model's summary of `messages` (thinking dropped), with the same retries and recovery as a step. */
async function summarise(
  parts: SoulParts,
  messages: Parameters<typeof compactionRequest>[0],
  customInstruction: string,
  signal: AbortSignal,
): Promise<{ parts: ContentPart[]; outputTokens: number | undefined }> {
  const { llm } = parts;
  if (!llm) throw new Error('No model to compact with.');
  const request = compactionRequest(messages, customInstruction);
  const result = await withRetry(
    () =>
      withAuthRecovery(
        () =>
          generate(llm.provider, COMPACTION_SYSTEM_PROMPT, [], [request], {
            signal,
            stall: soulStallOptions(parts.loopControl.stallTimeoutMs, parts.runScope.send),
          }),
        {
          refreshAuth: parts.refreshAuth,
        },
      ),
    {
      maxAttempts: parts.loopControl.maxRetriesPerStep,
      signal,
      sleep: parts.sleep,
      provider: llm.provider,
    },
  );
  return {
    parts: result.message.content.filter((part) => part.type !== 'think'),
    outputTokens: result.usage?.output,
  };
}
