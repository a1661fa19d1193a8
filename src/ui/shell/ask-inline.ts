import { sanitizeForTerminal as clean } from '../../util/sanitize-terminal.js';
import type { ApprovalRequest, QuestionRequest } from '../../wire/requests.js';
import type { LineReader } from './line-reader.js';

/**
 * Asks one approval. Only an explicit choice typed after the question appeared answers it: lines
 * typed ahead wait for the next prompt (see LineReader.ask), and an empty line asks again, so
 * neither type-ahead nor a stray Enter can approve anything. Any other text rejects, as the reason.
 */
export async function askApproval(
  request: ApprovalRequest,
  reader: LineReader,
  write: (text: string) => void,
): Promise<void> {
  const { action, description, source_kind, subagent_type, source_description } = request.payload;
  if (source_kind === 'background_agent') {
    const what = source_description ? `: ${clean(source_description)}` : '';
    write(`Background agent (${clean(subagent_type ?? 'subagent')}${what}) asks:\n`);
  }
  write(
    `Allow ${clean(action)}? ${withBlankRunsShown(clean(description))}\n  [y] yes  [a] yes, for this session  [n] no  (or type why not)\n`,
  );
  for (;;) {
    const answer = await reader.ask('approve? ');
    if (answer === null || !request.isPending) {
      if (request.isPending) request.resolve('reject');
      return;
    }
    const choice = answer.trim().toLowerCase();
    if (choice === '') {
      write('  (type y, a or n and press Enter)\n');
      continue;
    }
    if (choice === 'y' || choice === 'yes') request.resolve('approve');
    else if (choice === 'a' || choice === 'always') request.resolve('approve_for_session');
    else if (choice === 'n' || choice === 'no') request.resolve('reject');
    else request.resolve('reject', answer.trim());
    return;
  }
}

/** Asks a question request's questions one by one; only what is typed after each appears answers it. */
export async function askQuestions(
  request: QuestionRequest,
  reader: LineReader,
  write: (text: string) => void,
): Promise<void> {
  const answers: Record<string, string> = {};
  for (const item of request.payload.questions) {
    write(`${item.header ? `[${clean(item.header)}] ` : ''}${clean(item.question)}\n`);
    item.options.forEach((option, i) => {
      write(
        `  ${i + 1}. ${clean(option.label)}${option.description ? ` — ${clean(option.description)}` : ''}\n`,
      );
    });
    write(
      `  (a number${item.multi_select ? 's separated by commas' : ''}, your own answer, or empty to skip)\n`,
    );
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

/**
 * Runs of blank lines in what an approval shows, as one visible line: a command padded with screens
 * of empty lines would otherwise push its start out of sight and show only its harmless end.
 */
export function withBlankRunsShown(text: string): string {
  return text.replace(/\n(?:[ \t]*\n){2,}/g, (run) => `\n⟨${run.split('\n').length - 2} blank lines⟩\n`);
}
