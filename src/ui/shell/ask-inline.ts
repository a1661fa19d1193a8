import { revealInvisible } from '../../util/reveal-invisible.js';
import {
  sanitizeForTerminal as clean,
  joinTerminalText,
  type TerminalSafe,
  terminalText as t,
} from '../../util/sanitize-terminal.js';
import type { ApprovalAnswer, ApprovalRequest, QuestionRequest } from '../../wire/requests.js';
import { askingAgentLabel } from '../common/asking-agent.js';
import { commandPrefix } from '../common/command-prefix.js';
import type { LineReader } from './line-reader.js';

/**
 * Asks one approval with Kimi CLI's choices: 1 approve once, 2 approve for the session (then the
 * scope: this exact command / commands starting with a prefix / every such action, and whether to
 * save it as a permission rule), 3 reject, 4 reject saying what to do instead. Only an explicit
 * choice typed after the question appeared answers it: lines typed ahead wait for the next prompt
 * (see LineReader.ask), and an empty line asks again, so neither type-ahead nor a stray Enter can
 * approve anything. `y`/`a`/`n` still work; any other text rejects, as the reason.
 */
export async function askApproval(
  request: ApprovalRequest,
  reader: LineReader,
  write: (text: TerminalSafe) => void,
): Promise<void> {
  const { action, description, source_kind, subagent_type, source_description } = request.payload;
  if (source_kind === 'background_agent') {
    const what = source_description ? t`: ${clean(source_description)}` : t``;
    write(t`Background agent (${clean(subagent_type ?? 'subagent')}${what}) asks:\n`);
  } else {
    // A foreground subagent (several may ask one after another): which one, as the TUI names it.
    const agent = askingAgentLabel(request.payload);
    if (agent) write(t`${revealInvisible(`${agent[0]?.toUpperCase()}${agent.slice(1)}`)} asks:\n`);
  }
  // A swarm's agent may be answered for its swarm alone (kimi-ts; the request says which swarm).
  const inSwarm = Boolean(request.payload.swarm_id);
  const swarmChoice = inSwarm ? t`   5 approve for all agents of this swarm` : t``;
  // A brief block's text the description does not already hold (a scheduled prompt beyond its
  // 200-byte preview) is part of what is approved: shown in full, with hidden characters revealed.
  const briefs = request.payload.display.flatMap((block) =>
    block.type === 'brief' && 'text' in block && typeof block.text === 'string' && block.text
      ? description.includes(block.text)
        ? []
        : [t`  ${revealInvisible(block.text)}\n`]
      : [],
  );
  // A file edit's every changed line, before the question (nothing of it is approved unseen). Loaded
  // with the first edit asked about: the diff library is no part of the line shell's start.
  const edits = request.payload.display.some((block) => block.type === 'diff')
    ? (await import('./edit-lines.js')).editLinesText(request.payload.display)
    : t``;
  write(
    t`Allow ${clean(action)}? ${revealInvisible(description)}\n${joinTerminalText(briefs, t``)}${edits}  1 approve once   2 approve for this session   3 reject   4 reject, saying what to do instead${swarmChoice}\n`,
  );
  const ask = async (
    prompt: string,
    hint: string,
    accept: (choice: string) => boolean,
  ): Promise<string | null> => {
    for (;;) {
      const answer = await reader.ask(prompt);
      if (answer === null || !request.isPending) return null;
      const choice = answer.trim();
      if (choice !== '' && accept(choice.toLowerCase())) return choice;
      write(t`  (${clean(hint)})\n`);
    }
  };
  const settleUnanswered = (): void => {
    if (request.isPending) request.resolve('reject');
  };
  const first = await ask('approve? ', 'type 1, 2, 3 or 4 and press Enter', () => true);
  if (first === null) return settleUnanswered();
  switch (first.toLowerCase()) {
    case '1':
    case 'y':
    case 'yes':
      request.resolve('approve');
      return;
    case '3':
    case 'n':
    case 'no':
      request.resolve('reject');
      return;
    case '4': {
      const feedback = await ask('what should it do instead? ', 'say what to do instead', () => true);
      if (feedback === null) return settleUnanswered();
      request.resolve('reject', feedback);
      return;
    }
    case '2':
    case 'a':
    case 'always':
      return askSessionScope(request, action, ask, settleUnanswered, write, false);
    case '5':
      if (inSwarm) return askSessionScope(request, action, ask, settleUnanswered, write, true);
      request.resolve('reject', first);
      return;
    default:
      request.resolve('reject', first);
  }
}

type Ask = (prompt: string, hint: string, accept: (choice: string) => boolean) => Promise<string | null>;

async function askSessionScope(
  request: ApprovalRequest,
  action: string,
  ask: Ask,
  settleUnanswered: () => void,
  write: (text: TerminalSafe) => void,
  forSwarm: boolean,
): Promise<void> {
  const command = shownCommand(request);
  const prefix = command === null ? null : commandPrefix(command);
  const scopes: { label: TerminalSafe; extra: Pick<ApprovalAnswer, 'scope' | 'prefix'> }[] = [
    { label: t`this exact command`, extra: { scope: 'exact' } },
    ...(prefix
      ? [
          {
            label: t`commands starting with \`${revealInvisible(prefix)}\``,
            extra: { scope: 'prefix' as const, prefix },
          },
        ]
      : []),
    { label: t`every \`${clean(action)}\``, extra: { scope: 'action' } },
  ];
  write(
    t`  ${forSwarm ? t`For the agents of this swarm (not the main agent, not another swarm), until it ends, approve` : t`For the rest of the session, approve`}:\n${joinTerminalText(
      scopes.map((s, i) => t`    ${i + 1} ${s.label}\n`),
      t``,
    )}`,
  );
  const numbers = scopes.map((_, i) => String(i + 1));
  const picked = await ask('scope? ', `type ${numbers.join(', ')} and press Enter`, (c) =>
    numbers.includes(c),
  );
  if (picked === null) return settleUnanswered();
  const { extra } = scopes[Number(picked) - 1]!;
  if (forSwarm) {
    request.resolve('approve_for_session', '', { ...extra, for_swarm: true });
    return;
  }
  write(t`  Also save it as a permission rule?  p for this project   u for you, in every project   n no\n`);
  const save = await ask('save as rule? ', 'type p, u or n and press Enter', (c) =>
    ['p', 'u', 'n'].includes(c),
  );
  if (save === null) return settleUnanswered();
  const saveRule = save.toLowerCase() === 'p' ? 'project' : save.toLowerCase() === 'u' ? 'user' : undefined;
  request.resolve('approve_for_session', '', { ...extra, ...(saveRule ? { save_rule: saveRule } : {}) });
}

/** The shell command a request shows, or null. */
function shownCommand(request: ApprovalRequest): string | null {
  const block = request.payload.display.find((b) => b.type === 'shell') as { command?: unknown } | undefined;
  return typeof block?.command === 'string' ? block.command : null;
}

/** Asks a question request's questions one by one; only what is typed after each appears answers it. */
export async function askQuestions(
  request: QuestionRequest,
  reader: LineReader,
  write: (text: TerminalSafe) => void,
): Promise<void> {
  const answers: Record<string, string> = {};
  // A subagent's question says which agent asks, as its approvals do.
  const agent = askingAgentLabel(request.payload);
  if (agent) write(t`${revealInvisible(`${agent[0]?.toUpperCase()}${agent.slice(1)}`)} asks:\n`);
  for (const item of request.payload.questions) {
    write(t`${item.header ? t`[${clean(item.header)}] ` : t``}${clean(item.question)}\n`);
    item.options.forEach((option, i) => {
      const about = option.description ? t` \u2014 ${clean(option.description)}` : t``;
      write(t`  ${i + 1}. ${clean(option.label)}${about}\n`);
    });
    const numbers = item.multi_select ? t`numbers separated by commas` : t`a number`;
    write(t`  (${numbers}, your own answer, or empty to skip)\n`);
    const line = ((await reader.ask('answer? ')) ?? '').trim();
    if (!line) continue;
    const picked = line
      .split(',')
      .map((part) => Number(part.trim()))
      .filter((n) => Number.isInteger(n) && n >= 1 && n <= item.options.length)
      .map((n) => item.options[n - 1]!.label);
    answers[item.question] = picked.length > 0 ? picked.join(', ') : line;
  }
  request.resolve(answers);
}
