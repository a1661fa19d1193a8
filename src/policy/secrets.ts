/**
 * The values kimi-ts knows are secret (provider API keys, OAuth tokens, MCP headers and env values,
 * the key variables it reads) and the three things done with them: they are taken out of the
 * environment of every child process, replaced by `[redacted]` in whatever is written or shown, and
 * a tool call whose arguments carry one is refused.
 */

export const REDACTED = '[redacted]';

/**
 * Shorter values are not treated as secrets: replacing every "test" or "1234" in a session would
 * mangle ordinary text, and a value that short protects nothing anyway.
 */
export const MIN_SECRET_LENGTH = 8;

/** Environment variables whose value is a credential kimi-ts (or its providers) reads. */
export const SECRET_ENV_NAMES: readonly string[] = [
  'KIMI_API_KEY',
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'MOONSHOT_API_KEY',
];

export interface SecretMatch {
  /** Where the secret comes from ("providers.kimi.api_key", "env KIMI_API_KEY"), never its value. */
  source: string;
}

export class SecretRegistry {
  /** value → where it came from; longest values first when redacting, so overlaps go whole. */
  private readonly sources = new Map<string, string>();
  private ordered: string[] | null = null;

  /** Registers a secret value; values shorter than MIN_SECRET_LENGTH (or blank) are ignored. */
  add(value: string | undefined | null, source: string): void {
    if (typeof value !== 'string') return;
    const trimmed = value.trim();
    for (const candidate of new Set([value, trimmed])) {
      if (candidate.length < MIN_SECRET_LENGTH || this.sources.has(candidate)) continue;
      this.sources.set(candidate, source);
      // The same key JSON-escaped, as it appears inside a serialised record.
      const escaped = JSON.stringify(candidate).slice(1, -1);
      if (escaped !== candidate) this.sources.set(escaped, source);
      this.ordered = null;
    }
  }

  /** Every value of a string map (headers, an env table) under `source.<key>`. */
  addAll(values: Readonly<Record<string, string>> | undefined, source: string): void {
    for (const [key, value] of Object.entries(values ?? {})) this.add(value, `${source}.${key}`);
  }

  get size(): number {
    return this.sources.size;
  }

  /** The first secret found in `text`, or null. */
  findIn(text: string): SecretMatch | null {
    for (const value of this.values()) {
      if (text.includes(value)) return { source: this.sources.get(value)! };
    }
    return null;
  }

  /** `text` with every known secret replaced by `[redacted]`. */
  redact(text: string): string {
    if (this.sources.size === 0) return text;
    let out = text;
    for (const value of this.values()) {
      if (out.includes(value)) out = out.split(value).join(REDACTED);
    }
    return out;
  }

  /** A copy of a JSON-like value with every string redacted (the same object when nothing changed). */
  redactDeep<T>(value: T): T {
    if (this.sources.size === 0) return value;
    return redactIn(value, (text) => this.redact(text)) as T;
  }

  /** Whether any string inside a JSON-like value carries a secret. */
  findInValue(value: unknown): SecretMatch | null {
    if (this.sources.size === 0) return null;
    return this.findIn(typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));
  }

  /**
   * The environment for a child process: `env` without the secret variables kimi-ts reads and
   * without any variable whose value carries a known secret. `keep` names variables to leave in
   * (a plugin's declared `inject`).
   */
  childEnvironment(
    env: Readonly<Record<string, string | undefined>>,
    keep: ReadonlySet<string> = new Set(),
  ): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(env)) {
      if (value === undefined) continue;
      if (!keep.has(name) && (SECRET_ENV_NAMES.includes(name) || this.findIn(value) !== null)) continue;
      out[name] = value;
    }
    return out;
  }

  private values(): string[] {
    this.ordered ??= [...this.sources.keys()].sort((a, b) => b.length - a.length);
    return this.ordered;
  }
}

export function redactIn(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((item) => {
      const next = redactIn(item, redact);
      if (next !== item) changed = true;
      return next;
    });
    return changed ? out : value;
  }
  if (value !== null && typeof value === 'object' && isPlainObject(value)) {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const next = redactIn(item, redact);
      if (next !== item) changed = true;
      out[key] = next;
    }
    return changed ? out : value;
  }
  return value;
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
