import { z } from 'zod';
import { builtOnFirstUse } from '../util/built-on-first-use.js';
import { compileMatcher } from './matcher.js';
import { HOOK_EVENTS } from './types.js';

export const HOOK_TIMEOUT_DEFAULT_S = 30;
export const HOOK_TIMEOUT_MIN_S = 1;
export const HOOK_TIMEOUT_MAX_S = 600;

function buildHookConfigSchema() {
  return z
    .object({
      event: z.enum(HOOK_EVENTS),
      command: z.string().refine((command) => command.trim() !== '', 'command must not be empty'),
      matcher: z.string().default(''),
      timeout: z
        .number()
        .int()
        .min(HOOK_TIMEOUT_MIN_S)
        .max(HOOK_TIMEOUT_MAX_S)
        .default(HOOK_TIMEOUT_DEFAULT_S),
    })
    .superRefine((hook, ctx) => {
      const compiled = compileMatcher(hook.matcher);
      if (!compiled.ok) {
        ctx.addIssue({
          code: 'custom',
          path: ['matcher'],
          message: `matcher ${JSON.stringify(hook.matcher)} of the ${hook.event} hook running ${JSON.stringify(hook.command)} is not a valid regular expression (${compiled.error})`,
        });
      }
    });
}

/**
 * One `[[hooks]]` entry of the config file. Lazy: most configs have no hooks, and the schema is made
 * only when an entry is read (making every module's schemas at load was a large part of the start).
 */
export const hookConfigSchema = z.lazy(buildHookConfigSchema);

export type HookConfig = z.output<typeof hookConfigSchema>;
/** A hook entry as written in the config file: `matcher` and `timeout` may be left out. */
export type HookConfigInput = z.input<typeof hookConfigSchema>;

const hookConfigListSchema = builtOnFirstUse(() => z.array(hookConfigSchema));

/** The `[[hooks]]` section failed validation; the message names each bad entry and field. */
export class HookConfigError extends Error {
  override name = 'HookConfigError';
  constructor(
    message: string,
    readonly issues: readonly string[],
  ) {
    super(message);
  }
}

/**
 * Validates the `hooks` array of a parsed config file. Throws `HookConfigError` whose message names
 * every bad entry as `hooks[i]` (with its event and command when they are readable).
 */
export function parseHookConfigs(raw: unknown): HookConfig[] {
  const entries = raw ?? [];
  // No hooks (most configs): the schema is not even made.
  if (Array.isArray(entries) && entries.length === 0) return [];
  const parsed = hookConfigListSchema().safeParse(entries);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => describeIssue(raw, issue));
  throw new HookConfigError(
    `Invalid hooks configuration:\n${issues.map((line) => `  - ${line}`).join('\n')}`,
    issues,
  );
}

function describeIssue(raw: unknown, issue: z.core.$ZodIssue): string {
  const [index, field, ...rest] = issue.path;
  if (typeof index !== 'number') return `hooks: ${issue.message}`;
  const entry = Array.isArray(raw) ? entryLabel(raw[index]) : '';
  const where = field === undefined ? '' : ` field ${[field, ...rest].map(String).join('.')}`;
  return `hooks[${index}]${entry}${where}: ${issue.message}`;
}

function entryLabel(entry: unknown): string {
  if (typeof entry !== 'object' || entry === null) return '';
  const { event, command } = entry as Record<string, unknown>;
  const parts: string[] = [];
  if (typeof event === 'string') parts.push(`event ${JSON.stringify(event)}`);
  if (typeof command === 'string' && command.trim() !== '') parts.push(`command ${JSON.stringify(command)}`);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}
