import type { PermissionRule, RuleDecision } from './permission-rule.js';
import { scriptWrittenThenRun } from './script-written-then-run.js';
import type { CommandPart } from './shell-command.js';

/** What a call looks like to the rules: the tool, and the arguments its effects expose. */
export interface RuleSubject {
  readonly toolName: string;
  /** Path forms, URL and host, the MCP action…: a rule matches if its glob matches any of them. */
  readonly candidates: readonly string[];
  /** For Shell: every part of the parsed command; the whole is allowed only if every part is. */
  readonly commandParts?: readonly CommandPart[] | undefined;
  /** The parser could not read the whole command: no allow rule may let it through. */
  readonly commandIncomplete?: boolean | undefined;
}

export interface RuleVerdict {
  readonly decision: RuleDecision;
  readonly rule: PermissionRule;
  /**
   * The part of a command the rule was applied to when its match could not be ruled out (a name or
   * an argument an expansion decides), and why, for the message.
   */
  readonly uncertain?: { readonly part: string; readonly why: string } | undefined;
}

/**
 * The rules in force, in order (project file, user file, config). Deny rules are looked at first,
 * whatever their place; then the first allow or ask rule that matches decides.
 */
export class RuleSet {
  private readonly denies: PermissionRule[];
  private readonly others: PermissionRule[];

  /*
   * No verdict is remembered: matching a command's parts against the rules costs a few µs, and a
   * memo by parse (there was one) was read only for a tree-sitter command decided again, made a
   * WeakMap entry and a Map for every new one, and trained V8 on its hit path alone: the first new
   * command threw the optimised decision away (bench, loaded machine, CPU per new loop: 111 -> 96 µs
   * without it; the same command with wrappers decided again: 16 -> 19 µs).
   */
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

  /**
   * The first deny rule matching the call, or any one part of its command as the shell will run it.
   * A part whose command name an expansion decides (`$x -rf /`, `bash -c "$cmd"`) is denied by a rule
   * that could match it; a part with such an argument (`rm "$f"` under `rm -rf*`) is asked instead,
   * even in yolo (`decision: 'ask'`).
   */
  deny(subject: RuleSubject): RuleVerdict | null {
    const parts = subject.commandParts ?? [];
    // A rule that matches for certain is named before one whose match cannot be ruled out (a
    // command name an expansion decides), and that before one that only might (an argument).
    let unknown: { rule: PermissionRule; part: CommandPart } | null = null;
    let might: { rule: PermissionRule; part: CommandPart } | null = null;
    for (const rule of this.denies) {
      if (rule.matches(subject.toolName, subject.candidates)) return { decision: 'deny', rule };
      // Indexed: a parse's parts are frozen, and for-of over a frozen array makes an iterator
      // result per step even in optimised code.
      for (let i = 0; i < parts.length; i++) {
        const part = parts[i]!;
        const match = rule.matchesCommandPart(subject.toolName, part);
        if (match === 'matches') return { decision: 'deny', rule };
        if (match === 'unknown-name') unknown ??= { rule, part };
        else if (match === 'might') might ??= { rule, part };
      }
    }
    if (unknown === null && might === null && parts.length > 1 && this.denies.length > 0) {
      // A script the same command writes, then runs: what it runs cannot be ruled out (asked).
      const script = scriptWrittenThenRun(parts);
      const rule =
        script === null ? undefined : this.denies.find((deny) => deny.coversTool(subject.toolName));
      if (script !== null && rule !== undefined)
        return {
          decision: 'ask',
          rule,
          uncertain: {
            part: script.text,
            why: 'it runs a script the same command writes, which is not known yet',
          },
        };
    }
    if (unknown)
      return {
        decision: 'deny',
        rule: unknown.rule,
        uncertain: { part: unknown.part.text, why: UNKNOWN_NAME },
      };
    if (might)
      return {
        decision: 'ask',
        rule: might.rule,
        uncertain: { part: might.part.text, why: UNKNOWN_ARGUMENT },
      };
    return null;
  }

  /**
   * The first allow/ask rule matching. For a parsed command each part is judged alone: any part
   * asked → ask; every part allowed → allow; a part no rule covers → no verdict (the defaults decide).
   */
  allowOrAsk(subject: RuleSubject): RuleVerdict | null {
    const found = this.allowOrAskParts(subject);
    return subject.commandIncomplete && found?.decision === 'allow' ? null : found;
  }

  private allowOrAskParts(subject: RuleSubject): RuleVerdict | null {
    const parts = subject.commandParts;
    if (!parts || parts.length === 0) return this.firstMatch(subject.toolName, subject.candidates);
    let allowed: RuleVerdict | null = null;
    let uncovered = false;
    for (let i = 0; i < parts.length; i++) {
      const verdict = this.firstPartMatch(subject.toolName, parts[i]!);
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

  /**
   * The first allow/ask rule for one part of a command: an ask rule matches as a deny rule does (any
   * form of the part, and whatever it cannot rule out); an allow rule with an argument covers a
   * simple part only (every word literal, no assignment, no wrapper): what it names is what runs.
   */
  private firstPartMatch(toolName: string, part: CommandPart): RuleVerdict | null {
    for (const rule of this.others) {
      if (rule.decision === 'ask') {
        if (rule.matchesCommandPart(toolName, part) !== 'no') return { decision: 'ask', rule };
      } else if (rule.argument === null) {
        if (rule.coversTool(toolName)) return { decision: rule.decision, rule };
      } else if (part.literal !== null && rule.matchesText(toolName, textForAllow(part), part.literal)) {
        return { decision: rule.decision, rule };
      }
    }
    return null;
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

/**
 * What an allow rule reads of a simple part: its text, but for one a timing wrapper runs
 * (`timeout 5 rm -rf x`, the only simple parts with more than one invocation) only what it runs,
 * so that `Shell(timeout *)` does not cover every command.
 */
function textForAllow(part: CommandPart): string {
  return part.invocations.length > 1 ? part.literal! : part.text;
}

const UNKNOWN_NAME =
  'what it runs is decided only when it runs (a command name from an expansion, a string built at run time, or commands read from its input), so it could be what the rule names';
const UNKNOWN_ARGUMENT = 'an argument is decided by an expansion, so it could be what the rule names';
