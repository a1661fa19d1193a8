import {
  formatDuration,
  type GoalBook,
  type GoalBudget,
  GoalError,
  parseDuration,
} from '../../tools/goal/goal-book.js';
import type { SlashCommand } from '../slash-commands.js';
import { say } from '../slash-commands.js';

const USAGE =
  "Usage: /goal <objective> · /goal [--check '<command>'] [--max-turns N] [--max-tokens N] [--max-time 30m] <objective> · /goal (status) · /goal pause | resume | clear";

export interface ParsedGoalArgs {
  objective: string;
  check: string | null;
  budget: Partial<GoalBudget>;
}

/** Splits shell-like words: single and double quotes group, a backslash escapes in double quotes. */
function words(text: string): string[] | null {
  const out: string[] = [];
  let current = '';
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === "'" || ch === '"') {
      const end = text.indexOf(ch, i + 1);
      if (end < 0) return null;
      current += text.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (/\s/.test(ch)) {
      if (inWord) out.push(current);
      current = '';
      inWord = false;
    } else {
      current += ch;
      inWord = true;
    }
  }
  if (inWord) out.push(current);
  return out;
}

/** Reads `/goal`'s flags (before the objective) and the objective; a string is the problem. */
export function parseGoalArgs(args: string): ParsedGoalArgs | string {
  let rest = args.trim();
  let check: string | null = null;
  const budget: Partial<GoalBudget> = {};
  for (;;) {
    const flag = /^(--check|--max-turns|--max-tokens|--max-time)(?:=|\s+)/.exec(rest);
    if (!flag) break;
    rest = rest.slice(flag[0].length);
    const value = /^('[^']*'|"(?:[^"\\]|\\.)*"|\S+)\s*/.exec(rest);
    if (!value) return `${flag[1]} needs a value.`;
    rest = rest.slice(value[0].length);
    const parsed = words(value[1] as string)?.join(' ') ?? '';
    switch (flag[1]) {
      case '--check':
        if (!parsed.trim()) return '--check needs a command.';
        check = parsed;
        break;
      case '--max-turns':
      case '--max-tokens': {
        const n = Number(parsed);
        if (!Number.isInteger(n) || n <= 0) return `${flag[1]} needs a positive whole number.`;
        if (flag[1] === '--max-turns') budget.maxTurns = n;
        else budget.maxTokens = n;
        break;
      }
      default: {
        const ms = parseDuration(parsed);
        if (ms === null) return '--max-time needs a duration such as 30m, 2h or 90s.';
        budget.maxTimeMs = ms;
      }
    }
  }
  if (rest.startsWith('--')) return `Unknown option: ${rest.split(/\s/)[0]}`;
  return { objective: rest, check, budget };
}

export function goalStatusText(book: GoalBook): string {
  const { goal, elapsedMs } = book.view();
  if (!goal) return 'No goal. Start one with /goal <objective>.';
  const { budget } = goal;
  return [
    `Goal: ${goal.objective}`,
    `Status: ${goal.status}${goal.reason ? ` (${goal.reason})` : ''}`,
    goal.check ? `Check: ${goal.check}` : null,
    `Turns: ${goal.turnsUsed}/${budget.maxTurns ?? '∞'} · tokens: ${goal.tokensUsed}/${budget.maxTokens ?? '∞'} · time: ${formatDuration(elapsedMs)}/${budget.maxTimeMs === null ? '∞' : formatDuration(budget.maxTimeMs)}`,
  ]
    .filter((line) => line !== null)
    .join('\n');
}

/**
 * `/goal`: works without the model; when it leaves an active goal (a new one, or resume), the soul
 * runs the goal's turns right after, inside the same turn.
 */
export function goalCommand(book: GoalBook): SlashCommand {
  return {
    name: 'goal',
    description:
      'Work toward an objective across turns: /goal [--check CMD] [--max-turns N] <objective>, /goal pause|resume|clear',
    aliases: [],
    async run({ soul, args }) {
      const arg = args.trim();
      switch (arg.toLowerCase()) {
        case '':
        case 'status':
          say(soul, goalStatusText(book));
          return;
        case 'pause': {
          const goal = book.current();
          if (goal?.status !== 'active')
            say(soul, goal ? `The goal is ${goal.status}.` : 'There is no goal.');
          else {
            book.setStatus('paused', 'Paused by the user.');
            say(soul, 'Goal paused. /goal resume continues it.');
          }
          return;
        }
        case 'resume': {
          const goal = book.current();
          if (!goal) say(soul, 'There is no goal.');
          else if (goal.status === 'active') say(soul, 'The goal is already active.');
          else {
            book.setStatus('active');
            say(soul, `Goal resumed: ${goal.objective}`);
          }
          return;
        }
        case 'clear':
          say(soul, book.clear() ? 'The goal was cleared.' : 'There is no goal.');
          return;
      }
      const parsed = parseGoalArgs(arg);
      if (typeof parsed === 'string') {
        say(soul, `${parsed}\n${USAGE}`);
        return;
      }
      try {
        book.create(parsed);
      } catch (error) {
        if (error instanceof GoalError) {
          say(soul, error.message);
          return;
        }
        throw error;
      }
      say(soul, `Goal set: ${parsed.objective}`);
    },
  };
}
