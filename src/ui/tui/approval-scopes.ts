import type { ApprovalAnswer, ApprovalRequestData } from '../../wire/requests.js';
import { sanitizeForTerminal } from './sanitize-for-terminal.js';

/** One way to approve for the session, as the scope stage of the approval panel offers it. */
export interface SessionScope {
  label: string;
  answer: Pick<ApprovalAnswer, 'scope' | 'prefix'>;
}

/** Tools whose first word is a family of commands: their prefix is the first two words (`git status`). */
const COMMAND_FAMILIES = new Set([
  'git',
  'npm',
  'npx',
  'pnpm',
  'yarn',
  'cargo',
  'go',
  'docker',
  'kubectl',
  'pip',
  'uv',
  'make',
  'gh',
]);
/** A word that is plainly a program or subcommand name: no quoting, no expansion, no operators. */
const PLAIN_WORD = /^[A-Za-z0-9_][A-Za-z0-9_.+-]*$/;

/** The shell command a request shows, or null (not a command, or an empty one). */
export function shownCommand(payload: ApprovalRequestData): string | null {
  const shell = payload.display.find((block) => block.type === 'shell');
  const command =
    shell && 'command' in shell && typeof shell.command === 'string' ? shell.command.trim() : '';
  return command === '' ? null : command;
}

/**
 * The prefix "commands starting with …" offers for `command`: its first word (two for a command
 * family such as `git`), when those words are plain names. Null when there is none worth offering
 * (a leading assignment, quoting, a path to a script…): the exact command or the whole action still can.
 * The policy applies a prefix to every part of a later command, so `echo a; rm x` is not covered by `echo`.
 */
export function commandPrefix(command: string): string | null {
  const words = command.trim().split(/\s+/);
  const [first, second] = words;
  if (first === undefined || !PLAIN_WORD.test(first) || first.includes('=')) return null;
  if (COMMAND_FAMILIES.has(first) && second !== undefined && /^[a-z][a-z0-9-]*$/.test(second))
    return `${first} ${second}`;
  return first;
}

/** The scopes "approve for this session" offers for a request, narrowest first. */
export function sessionScopes(payload: ApprovalRequestData): SessionScope[] {
  const command = shownCommand(payload);
  const action = sanitizeForTerminal(payload.action);
  const scopes: SessionScope[] = [
    {
      label: command
        ? `Only \`${sanitizeForTerminal(command)}\`, for this session`
        : 'Only exactly this, for this session',
      answer: { scope: 'exact' },
    },
  ];
  const prefix = command && commandPrefix(command);
  if (prefix)
    scopes.push({
      label: `Commands starting with \`${sanitizeForTerminal(prefix)}\`, for this session`,
      answer: { scope: 'prefix', prefix },
    });
  scopes.push({ label: `Every "${action}", for this session`, answer: { scope: 'action' } });
  return scopes;
}
