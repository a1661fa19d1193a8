import type { PermissionRule, RuleDecision } from './permission-rule.js';

/** What a call looks like to the rules: the tool, and the arguments its effects expose. */
export interface RuleSubject {
  readonly toolName: string;
  /** Path forms, URL and host, the MCP action…: a rule matches if its glob matches any of them. */
  readonly candidates: readonly string[];
  /** For Shell: every part of the parsed command; the whole is allowed only if every part is. */
  readonly commandParts?: readonly string[] | undefined;
  /** The parser could not read the whole command: no allow rule may let it through. */
  readonly commandIncomplete?: boolean | undefined;
}

export interface RuleVerdict {
  readonly decision: RuleDecision;
  readonly rule: PermissionRule;
}

/**
 * The rules in force, in order (project file, user file, config). Deny rules are looked at first,
 * whatever their place; then the first allow or ask rule that matches decides.
 */
export class RuleSet {
  private readonly denies: PermissionRule[];
  private readonly others: PermissionRule[];

  constructor(readonly rules: readonly PermissionRule[]) {
    this.denies = rules.filter((rule) => rule.decision === 'deny');
    this.others = rules.filter((rule) => rule.decision !== 'deny');
  }

  static empty(): RuleSet {
    return new RuleSet([]);
  }

  /** Whether any rule names this tool (so a Shell call's command must be parsed). */
  mentions(toolName: string): boolean {
    return this.rules.some((rule) => rule.coversTool(toolName));
  }

  /** The first deny rule matching the call, or any one part of its command. */
  deny(subject: RuleSubject): RuleVerdict | null {
    const all = [...subject.candidates, ...(subject.commandParts ?? [])];
    for (const rule of this.denies) {
      if (rule.matches(subject.toolName, all)) return { decision: 'deny', rule };
    }
    return null;
  }

  /**
   * The first allow/ask rule matching. For a parsed command each part is judged alone: any part
   * asked → ask; every part allowed → allow; a part no rule covers → no verdict (the defaults decide).
   */
  allowOrAsk(subject: RuleSubject): RuleVerdict | null {
    const verdict = this.allowOrAskParts(subject);
    return subject.commandIncomplete && verdict?.decision === 'allow' ? null : verdict;
  }

  private allowOrAskParts(subject: RuleSubject): RuleVerdict | null {
    const parts = subject.commandParts;
    if (!parts || parts.length === 0) return this.firstMatch(subject.toolName, subject.candidates);
    let allowed: RuleVerdict | null = null;
    let uncovered = false;
    for (const part of parts) {
      const verdict = this.firstMatch(subject.toolName, [part]);
      if (verdict?.decision === 'ask') return verdict;
      if (verdict) allowed ??= verdict;
      else uncovered = true;
    }
    if (uncovered) {
      // A rule for the tool as a whole (no argument) still answers for an uncovered part.
      const whole = this.others.find((rule) => rule.argument === null && rule.coversTool(subject.toolName));
      return whole ? { decision: whole.decision, rule: whole } : null;
    }
    return allowed;
  }

  /** An allow rule with an argument (not a whole-tool rule) is the first allow/ask match. */
  allowsByName(subject: RuleSubject): boolean {
    const verdict = this.firstMatch(subject.toolName, subject.candidates);
    return verdict?.decision === 'allow' && verdict.rule.argument !== null;
  }

  private firstMatch(toolName: string, candidates: readonly string[]): RuleVerdict | null {
    for (const rule of this.others) {
      if (rule.matches(toolName, candidates)) return { decision: rule.decision, rule };
    }
    return null;
  }
}
