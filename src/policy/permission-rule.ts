import { compileGlob } from './glob-pattern.js';
import type { CommandPart } from './shell-command.js';
import {
  matchShape,
  type ShellMatch,
  type ShellRuleShape,
  shellRuleShape,
  strongerMatch,
} from './shell-rule-match.js';

export const RULE_DECISIONS = ['allow', 'deny', 'ask'] as const;
export type RuleDecision = (typeof RULE_DECISIONS)[number];

export const RULE_SCOPES = ['session', 'project', 'user'] as const;
export type RuleScope = (typeof RULE_SCOPES)[number];

/** Where a rule was read from, for `/permissions` and for error messages. */
export interface RuleOrigin {
  /** The file, or a label such as `session`. */
  readonly file: string;
  /** Its position among that file's rules (1-based). */
  readonly index: number;
}

/** A permission rule as written: Kimi Code's `[[permission.rules]]`. */
export interface PermissionRuleSpec {
  decision: RuleDecision;
  pattern: string;
  scope?: RuleScope | undefined;
  reason?: string | undefined;
}

/** Kimi Code's (and Claude Code's) tool names, accepted for ours. */
export const TOOL_ALIASES: Readonly<Record<string, string>> = {
  Bash: 'Shell',
  Read: 'ReadFile',
  Write: 'WriteFile',
  Edit: 'StrReplaceFile',
  MultiEdit: 'StrReplaceFile',
  Glob: 'Glob',
  Grep: 'Grep',
  WebSearch: 'SearchWeb',
  WebFetch: 'FetchURL',
};

/** Tools whose argument is a path: their globs treat `/` as a separator. */
const PATH_TOOLS = new Set(['ReadFile', 'ReadMediaFile', 'WriteFile', 'StrReplaceFile', 'Glob', 'Grep']);

export class InvalidRuleError extends Error {
  override name = 'InvalidRuleError';
  constructor(
    readonly origin: RuleOrigin,
    readonly pattern: string,
    readonly detail: string,
  ) {
    super(`Invalid permission rule #${origin.index} (pattern "${pattern}") in ${origin.file}: ${detail}`);
  }
}

/** A rule ready to match: `Tool` or `Tool(arg-glob)`, first match wins. */
export class PermissionRule {
  readonly tool: string;
  /** The glob inside the parentheses, or null for the whole tool. */
  readonly argument: string | null;
  private readonly matchArgument: ((text: string) => boolean) | null;
  /** The argument read as a command (see shell-rule-match.ts), made on first use. */
  private shape: ShellRuleShape | null | undefined;

  constructor(
    readonly spec: PermissionRuleSpec,
    readonly origin: RuleOrigin,
  ) {
    const parsed = /^([A-Za-z_][\w:.-]*)(?:\((.*)\))?$/s.exec(spec.pattern.trim());
    if (!parsed) {
      throw new InvalidRuleError(
        origin,
        spec.pattern,
        'expected `Tool` or `Tool(argument-glob)`, e.g. `Shell(rm -rf*)`',
      );
    }
    const name = parsed[1]!;
    this.tool = TOOL_ALIASES[name] ?? name;
    this.argument = parsed[2] ?? null;
    if (this.argument !== null && this.argument.trim() === '') {
      throw new InvalidRuleError(origin, spec.pattern, 'the argument glob inside the parentheses is empty');
    }
    this.matchArgument =
      this.argument === null ? null : compileGlob(this.argument.trim(), PATH_TOOLS.has(this.tool));
  }

  get decision(): RuleDecision {
    return this.spec.decision;
  }

  /** Whether the rule names this tool (`*` names every tool). */
  coversTool(toolName: string): boolean {
    return this.tool === '*' || this.tool === toolName;
  }

  /** Whether the rule applies to a call of `toolName` whose argument is one of `candidates`. */
  matches(toolName: string, candidates: readonly string[]): boolean {
    if (!this.coversTool(toolName)) return false;
    if (this.matchArgument === null) return true;
    for (let i = 0; i < candidates.length; i++) if (this.matchArgument(candidates[i]!)) return true;
    return false;
  }

  /** `matches` for one or two texts (a simple command part as written and as its literal words). */
  matchesText(toolName: string, text: string, other: string): boolean {
    if (!this.coversTool(toolName)) return false;
    // A simple part's literal form is most often its text: one test answers for both.
    return (
      this.matchArgument === null || this.matchArgument(text) || (other !== text && this.matchArgument(other))
    );
  }

  /**
   * Whether the rule matches a part of a shell command as the shell will run it: its text, or any
   * of its invocations (wrappers removed, flags in any order); `might` when a word an expansion
   * decides could make it match. A rule without an argument matches every part.
   */
  matchesCommandPart(toolName: string, part: CommandPart): ShellMatch {
    if (!this.coversTool(toolName)) return 'no';
    if (this.matchArgument === null) return 'matches';
    if (
      this.matchArgument(part.text) ||
      (part.literal !== null && part.literal !== part.text && this.matchArgument(part.literal))
    )
      return 'matches';
    this.shape ??= shellRuleShape(this.argument ?? '', (glob) => compileGlob(glob, false));
    const shape = this.shape;
    let result: ShellMatch = 'no';
    // Indexed: the invocations are frozen (for-of would make an iterator result per step).
    const invocations = part.invocations;
    for (let i = 0; i < invocations.length; i++) {
      const words = invocations[i]!;
      // A rule that cannot be read as a command still cannot be ruled out for a command nobody can name.
      const found =
        shape === null
          ? words[0]?.value === null && words[0].splits
            ? 'unknown-name'
            : 'no'
          : matchShape(shape, words);
      result = strongerMatch(result, found);
      if (result === 'matches') return result;
    }
    return result;
  }

  /** How `/permissions` shows the rule. */
  describe(): string {
    const reason = this.spec.reason ? ` — ${this.spec.reason}` : '';
    return `${this.spec.decision.padEnd(5)} ${this.spec.pattern}${reason}  (${this.origin.file}, rule ${this.origin.index})`;
  }
}
