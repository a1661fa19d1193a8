import { revealInvisible } from '../../util/reveal-invisible.js';
import { type TerminalSafe, terminalText as t } from '../../util/sanitize-terminal.js';
import type { ApprovalAnswer, ApprovalRequestData } from '../../wire/requests.js';
import { commandPrefix } from '../common/command-prefix.js';
import { sanitizeForTerminal } from './sanitize-for-terminal.js';

/** One way to approve for the session, as the scope stage of the approval panel offers it. */
export interface SessionScope {
  label: TerminalSafe;
  answer: Pick<ApprovalAnswer, 'scope' | 'prefix' | 'for_swarm'>;
}

/** The shell command a request shows, or null (not a command, or an empty one). */
export function shownCommand(payload: ApprovalRequestData): string | null {
  const shell = payload.display.find((block) => block.type === 'shell');
  const command =
    shell && 'command' in shell && typeof shell.command === 'string' ? shell.command.trim() : '';
  return command === '' ? null : command;
}

/**
 * The scopes "approve for this session" offers for a request, narrowest first; with `forSwarm`, the
 * same scopes for the agents of the asking agent's swarm only ("approve for all agents of this swarm").
 */
export function sessionScopes(payload: ApprovalRequestData, forSwarm = false): SessionScope[] {
  const command = shownCommand(payload);
  const action = sanitizeForTerminal(payload.action);
  const extent = forSwarm ? t`for the agents of this swarm` : t`for this session`;
  const swarm = forSwarm ? { for_swarm: true } : {};
  const scopes: SessionScope[] = [
    {
      label: command
        ? t`Only \`${revealInvisible(sanitizeForTerminal(command))}\`, ${extent}`
        : t`Only exactly this, ${extent}`,
      answer: { scope: 'exact', ...swarm },
    },
  ];
  const prefix = command && commandPrefix(command);
  if (prefix)
    scopes.push({
      label: t`Commands starting with \`${revealInvisible(sanitizeForTerminal(prefix))}\`, ${extent}`,
      answer: { scope: 'prefix', prefix, ...swarm },
    });
  scopes.push({ label: t`Every "${action}", ${extent}`, answer: { scope: 'action', ...swarm } });
  return scopes;
}
