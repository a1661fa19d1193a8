import { revealInvisible } from '../../util/reveal-invisible.js';
import { type TerminalSafe, terminalText as t } from '../../util/sanitize-terminal.js';
import type { ApprovalAnswer, ApprovalRequestData } from '../../wire/requests.js';
import { commandPrefix } from '../common/command-prefix.js';
import { sanitizeForTerminal } from './sanitize-for-terminal.js';

/** One way to approve for the session, as the scope stage of the approval panel offers it. */
export interface SessionScope {
  label: TerminalSafe;
  answer: Pick<ApprovalAnswer, 'scope' | 'prefix'>;
}

/** The shell command a request shows, or null (not a command, or an empty one). */
export function shownCommand(payload: ApprovalRequestData): string | null {
  const shell = payload.display.find((block) => block.type === 'shell');
  const command =
    shell && 'command' in shell && typeof shell.command === 'string' ? shell.command.trim() : '';
  return command === '' ? null : command;
}

/** The scopes "approve for this session" offers for a request, narrowest first. */
export function sessionScopes(payload: ApprovalRequestData): SessionScope[] {
  const command = shownCommand(payload);
  const action = sanitizeForTerminal(payload.action);
  const scopes: SessionScope[] = [
    {
      label: command
        ? t`Only \`${revealInvisible(sanitizeForTerminal(command))}\`, for this session`
        : t`Only exactly this, for this session`,
      answer: { scope: 'exact' },
    },
  ];
  const prefix = command && commandPrefix(command);
  if (prefix)
    scopes.push({
      label: t`Commands starting with \`${revealInvisible(sanitizeForTerminal(prefix))}\`, for this session`,
      answer: { scope: 'prefix', prefix },
    });
  scopes.push({ label: t`Every "${action}", for this session`, answer: { scope: 'action' } });
  return scopes;
}
